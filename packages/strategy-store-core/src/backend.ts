// What a StrategyStore backend is built from: validation, ids and cursors, the indexed form, the
// ranking (BM25F, its exact MaxScore and the fused score). A user of a store needs none of it.
export { notFound, closedError } from "./errors";
export { DEFAULT_LIST_LIMIT } from "./limits";
export { RecordIdSchema, ConfidenceSchema, EmbeddingSchema } from "./record";
export type { ParsedStrategyInput } from "./record";
export { parseOrThrow, parseInput, parseSearch, parseList, parseScope, parseId, parseSuccess } from "./validate";
export { words, tokenize, queryWords } from "./tokenize";
export { normaliseStrategy, strategyKey } from "./normalise";
export { newId } from "./id";
export { encodeCursor, decodeCursor } from "./cursor";
export { recordFromRow, rankedFieldsFromRow } from "./stored-row";
export { indexedForm, readIndexedForm, indexedTerms, termsText, termsFromText } from "./indexed-form";
export type { IndexedForm, TermSet } from "./indexed-form";
export { prepareStrategy, prepareBatch, embedOne, newRecord, mergeRecord } from "./prepare";
export type { PreparedStrategy } from "./prepare";
export { rankCandidates, recordTerms, candidatePoolSize, outcomeFactor, cosineSimilarity, RRF_K } from "./ranking";
export type { LexicalCandidate, VectorCandidate, RankedFields, RankedHit, RankOptions } from "./ranking";
export {
  BM25F,
  LEXICAL_FIELDS,
  documentTerms,
  queryTerms,
  idf,
  lengthNorms,
  weightedFrequency,
  saturate,
} from "./bm25f";
export type { FieldTriple, TermPosting, DocumentTerms, ScopeTotals, LexicalFields } from "./bm25f";
export { maxScoreTop } from "./max-score";
export type { TermPostings, PostingRun, ScoredSeq } from "./max-score";
