/** A row as pg returns it; `recordFromRow` from core reads it into a record. */
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
  "id, scope, problem, strategy, correction, next_step, confidence, source, tags, embedding, " +
  "created_at, updated_at, uses, successes";

/** pgvector's text form. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(",")}]`;
}
