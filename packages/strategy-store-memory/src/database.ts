import type { StrategyRecord } from "@x/strategy-store-core";
import { ScopeIndex } from "./scope-index";

/** Everything one scope holds. Each scope has its own index, so BM25F statistics never mix scopes. */
export interface ScopeData {
  records: Map<string, StrategyRecord>;
  idByKey: Map<string, string>;
  keyById: Map<string, string>;
  index: ScopeIndex;
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
      data = { records: new Map(), idByKey: new Map(), keyById: new Map(), index: new ScopeIndex() };
      this.scopes.set(scope, data);
    }
    return data;
  }
}
