import { type StrategyRecord } from "@x/strategy-store-core";
import { recordFromRow } from "@x/strategy-store-core/backend";

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
  /** What the row's postings hold (see lexical-index.ts). */
  indexed: string;
  /** The row's distinct index terms, space-separated. */
  terms: string;
}

/** A stored row as a record: the blob embedding decoded here, everything else read by core's one row schema. */
export function rowToRecord(row: StrategyRow): StrategyRecord {
  return recordFromRow({ ...row, embedding: row.embedding === null ? null : decodeEmbedding(row.embedding) });
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
