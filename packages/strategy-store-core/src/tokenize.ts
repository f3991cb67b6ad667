import { stemmer } from "stemmer";
import { LIMITS } from "./limits";

// Function words carry no signal about the class of a problem; dropping them keeps lexical
// matches (and query coverage) about content.
const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as " +
    "at be because been before being below between both but by " +
    "can could did do does doing down during each few for from " +
    "further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most " +
    "my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such " +
    "than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was " +
    "we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves s t don doesn didn isn wasn won cannot can't let lets get gets got"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Content words of `text`, in order, lower-cased, without stopwords or single letters. */
export function words(text: string): string[] {
  return wordsOf(text, false);
}

function wordsOf(text: string, keepCase: boolean): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").matchAll(WORD)) {
    const lower = match[0].toLowerCase();
    if ((lower.length > 1 || /\p{N}/u.test(lower)) && !STOPWORDS.has(lower)) out.push(keepCase ? match[0] : lower);
  }
  return out;
}

// Stemming dominates tokenising and vocabularies repeat, so stems are memoised (bounded).
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** Stemmed content tokens: what the in-memory index and query coverage compare. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/**
 * Distinct content words of a query, capped, for backends that fold case and stem on their own
 * side (FTS5 porter, Postgres `english`): case is kept, because a database in the C locale folds
 * only ASCII and must fold the query exactly as it folded the documents. Only letters and digits
 * survive, so no query syntax gets through.
 */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query, true))].slice(0, LIMITS.queryWords);
}
