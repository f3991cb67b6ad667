import MiniSearch from "minisearch";
import { tokenize } from "@x/strategy-store-core";
import type { StrategyRecord } from "@x/strategy-store-core";

/** Everything one scope holds. Each scope has its own index, so BM25 statistics never mix scopes. */
export interface ScopeData {
  records: Map<string, StrategyRecord>;
  idByKey: Map<string, string>;
  keyById: Map<string, string>;
  index: MiniSearch<IndexedDoc>;
}

export interface IndexedDoc {
  id: string;
  problem: string;
  strategy: string;
  tags: string;
}

/**
 * The state several `MemoryStrategyStore` instances can share, the in-memory counterpart of one
 * database file: stores opened on the same `MemoryStrategyDatabase` see each other's writes.
 */
export class MemoryStrategyDatabase {
  private readonly scopes = new Map<string, ScopeData>();

  scope(scope: string): ScopeData | undefined {
    return this.scopes.get(scope);
  }

  scopeForWrite(scope: string): ScopeData {
    let data = this.scopes.get(scope);
    if (!data) {
      data = { records: new Map(), idByKey: new Map(), keyById: new Map(), index: newIndex() };
      this.scopes.set(scope, data);
    }
    return data;
  }
}

function newIndex(): MiniSearch<IndexedDoc> {
  return new MiniSearch<IndexedDoc>({
    fields: ["problem", "strategy", "tags"],
    // Core's tokenizer already lower-cases, drops stopwords and stems, the same on both sides.
    tokenize: (text) => tokenize(text),
    processTerm: (term) => term,
    searchOptions: { boost: { problem: 2 }, combineWith: "OR", prefix: false, fuzzy: false },
  });
}

export function toIndexedDoc(record: StrategyRecord): IndexedDoc {
  return { id: record.id, problem: record.problem, strategy: record.strategy, tags: record.tags.join(" ") };
}
