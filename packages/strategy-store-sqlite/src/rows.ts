import type { StrategyRecord } from "@x/strategy-store-core";

export interface StrategyRow {
  seq: number;
  id: string;
  scope: string;
  strategy_key: string;
  problem: string;
  strategy: string;
  correction: string | null;
  next_step: string | null;
  confidence: number;
  source: string;
  tags: string;
  embedding: Buffer | null;
  created_at: string;
  updated_at: string;
  uses: number;
  successes: number;
}

export function rowToRecord(row: StrategyRow): StrategyRecord {
  return {
    id: row.id,
    scope: row.scope,
    problem: row.problem,
    strategy: row.strategy,
    ...(row.correction === null ? {} : { correction: row.correction }),
    ...(row.next_step === null ? {} : { nextStep: row.next_step }),
    confidence: row.confidence,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    uses: row.uses,
    successes: row.successes,
    tags: JSON.parse(row.tags) as string[],
    ...(row.embedding === null ? {} : { embedding: decodeEmbedding(row.embedding) }),
  };
}

/** Float64 little-endian, so a stored vector reads back bit-for-bit. */
export function encodeEmbedding(embedding: readonly number[] | undefined): Buffer | null {
  return embedding === undefined ? null : Buffer.from(new Float64Array(embedding).buffer);
}

export function decodeEmbedding(blob: Buffer): number[] {
  // Copy first: the driver's Buffer need not be 8-byte aligned.
  const copy = new Uint8Array(blob);
  return Array.from(new Float64Array(copy.buffer, 0, copy.byteLength / 8));
}
