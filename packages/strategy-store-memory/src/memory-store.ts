import {
  candidatePoolSize,
  closedError,
  cosineSimilarity,
  decodeCursor,
  DEFAULT_LIST_LIMIT,
  embedOne,
  encodeCursor,
  mergeRecord,
  newId,
  newRecord,
  notFound,
  parseId,
  parseList,
  parseScope,
  parseSearch,
  parseSuccess,
  prepareBatch,
  queryTerms,
  rankCandidates,
  recordTerms,
} from "@x/strategy-store-core/backend";
import type {
  EmbedFn,
  ListQuery,
  SearchQuery,
  StrategyHit,
  StrategyInput,
  StrategyPage,
  StrategyRecord,
  StrategyStore,
  StrategyStoreOptions,
} from "@x/strategy-store-core";
import type { LexicalCandidate, PreparedStrategy, VectorCandidate } from "@x/strategy-store-core/backend";
import { MemoryStrategyDatabase } from "./database";
import type { ScopeData } from "./database";

export interface MemoryStrategyStoreOptions extends StrategyStoreOptions {
  /** Share state with other stores opened on the same database (default: a private one). */
  database?: MemoryStrategyDatabase;
}

/** Keeps records in process memory: for tests, demos and single-process hosts that need no durability. */
export class MemoryStrategyStore implements StrategyStore {
  readonly vectorSearch: boolean;
  readonly database: MemoryStrategyDatabase;
  private readonly embed: EmbedFn | undefined;
  private closed = false;

  constructor(options: MemoryStrategyStoreOptions = {}) {
    this.database = options.database ?? new MemoryStrategyDatabase();
    this.embed = options.embed;
    this.vectorSearch = options.embed !== undefined;
  }

  async put(input: StrategyInput): Promise<StrategyRecord> {
    return (await this.putMany([input]))[0]!;
  }

  async putMany(inputs: readonly StrategyInput[]): Promise<StrategyRecord[]> {
    this.assertOpen();
    const prepared = await prepareBatch(inputs, this.embed);
    this.assertOpen();
    // From here to the return nothing awaits, so no other call sees the batch half written.
    return prepared.map((one) => structuredClone(this.write(one)));
  }

  private write(prepared: PreparedStrategy): StrategyRecord {
    const data = this.database.scopeForWrite(prepared.scope);
    const now = new Date().toISOString();
    const existingId = data.idByKey.get(prepared.key);
    const existing = existingId === undefined ? undefined : data.records.get(existingId);
    const record = existing ? mergeRecord(existing, prepared, now) : newRecord(prepared, newId(), now);
    data.records.set(record.id, record);
    data.idByKey.set(prepared.key, record.id);
    data.keyById.set(record.id, prepared.key);
    const seq = existing ? data.index.remove(existing.id) : undefined;
    data.index.add(record.id, record, seq);
    return record;
  }

  async search(query: SearchQuery): Promise<StrategyHit[]> {
    this.assertOpen();
    const parsed = parseSearch(query);
    const queryVector = this.embed && parsed.query.trim() !== "" ? await embedOne(this.embed, parsed.query) : undefined;
    this.assertOpen();
    const data = this.database.scope(parsed.scope);
    if (!data) return [];
    const pool = candidatePoolSize(parsed.k);
    const lexical: LexicalCandidate[] = data.index.search(queryTerms(parsed.query), pool).flatMap((result) => {
      const record = data.records.get(result.id);
      return record ? [{ record, score: result.score, terms: result.terms }] : [];
    });
    const vector = queryVector ? nearest(data, queryVector, pool) : undefined;
    return rankCandidates(parsed.query, lexical, vector, parsed).map((hit) => ({
      record: structuredClone(hit.record),
      score: hit.score,
    }));
  }

  async recordOutcome(scope: string, id: string, success: boolean): Promise<StrategyRecord> {
    this.assertOpen();
    const data = this.database.scope(parseScope(scope));
    const record = data?.records.get(parseId(id));
    const succeeded = parseSuccess(success);
    if (!data || !record) throw notFound();
    const updated: StrategyRecord = {
      ...record,
      uses: record.uses + 1,
      successes: record.successes + (succeeded ? 1 : 0),
      updatedAt: new Date().toISOString(),
    };
    data.records.set(id, updated);
    return structuredClone(updated);
  }

  async get(scope: string, id: string): Promise<StrategyRecord | undefined> {
    this.assertOpen();
    const record = this.database.scope(parseScope(scope))?.records.get(parseId(id));
    return record ? structuredClone(record) : undefined;
  }

  async list(query: ListQuery): Promise<StrategyPage> {
    this.assertOpen();
    const parsed = parseList(query);
    const after = decodeCursor(parsed.cursor);
    const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
    const data = this.database.scope(parsed.scope);
    if (!data) return { records: [] };
    const ids = [...data.records.keys()].filter((id) => after === undefined || id > after).sort();
    const records = ids.slice(0, limit).map((id) => structuredClone(data.records.get(id)!));
    const last = records.at(-1);
    return ids.length > limit && last ? { records, nextCursor: encodeCursor(last.id) } : { records };
  }

  async delete(scope: string, id: string): Promise<boolean> {
    this.assertOpen();
    const data = this.database.scope(parseScope(scope));
    const key = parseId(id);
    const record = data?.records.get(key);
    if (!data || !record) return false;
    data.records.delete(key);
    data.index.remove(key);
    const dedupeKey = data.keyById.get(key);
    data.keyById.delete(key);
    if (dedupeKey !== undefined) data.idByKey.delete(dedupeKey);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

function nearest(data: ScopeData, queryVector: number[], pool: number): VectorCandidate[] {
  const scored: Array<{ record: StrategyRecord; similarity: number }> = [];
  for (const record of data.records.values()) {
    if (record.embedding?.length === queryVector.length) {
      scored.push({ record, similarity: cosineSimilarity(record.embedding, queryVector) });
    }
  }
  return scored
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, pool)
    .map((hit) => ({ ...hit, terms: recordTerms(hit.record) }));
}
