/** Upper bounds on what one record may hold; they keep rows indexable and prompts small. */
export const LIMITS = {
  scope: 256,
  text: 4000,
  source: 200,
  tags: 32,
  tag: 64,
  embeddingDims: 4096,
  k: 100,
  listLimit: 500,
  queryWords: 64,
  /** Inputs one `putMany` call may carry. */
  batch: 10_000,
} as const;

export const DEFAULT_LIST_LIMIT = 50;
