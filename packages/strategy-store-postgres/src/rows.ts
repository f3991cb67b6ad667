import type { StrategyRecord } from "@x/strategy-store-core";

export interface StrategyRow {
  id: string;
  scope: string;
  problem: string;
  strategy: string;
  correction: string | null;
  next_step: string | null;
  confidence: number;
  source: string;
  tags: string[];
  embedding: number[] | null;
  created_at: Date | string;
  updated_at: Date | string;
  uses: number;
  successes: number;
}

/** Columns a record is read from (the tsvector and vector columns stay in the database). */
export const RECORD_COLUMNS =
  "id, scope, problem, strategy, correction, next_step, confidence, source, tags, embedding, created_at, updated_at, uses, successes";

export function rowToRecord(row: StrategyRow): StrategyRecord {
  return {
    id: row.id,
    scope: row.scope,
    problem: row.problem,
    strategy: row.strategy,
    ...(row.correction === null ? {} : { correction: row.correction }),
    ...(row.next_step === null ? {} : { nextStep: row.next_step }),
    confidence: Number(row.confidence),
    source: row.source,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    uses: Number(row.uses),
    successes: Number(row.successes),
    tags: row.tags,
    ...(row.embedding === null ? {} : { embedding: row.embedding.map(Number) }),
  };
}

/** pgvector's text form. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(",")}]`;
}
