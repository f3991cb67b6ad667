import type { InputKind } from "@x/llm-types";

/** What the catalog says about one model: everything a `Model` needs but its wire and endpoint. */
export interface PresetData {
  readonly name: string;
  readonly reasoning: boolean;
  readonly input: readonly InputKind[];
  /** US dollars per million tokens. */
  readonly cost: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
  };
  readonly contextWindow: number;
  readonly maxTokens: number;
}
