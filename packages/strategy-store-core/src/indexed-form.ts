import { z } from "zod/v4";
import type { DocumentTerms } from "./bm25f";
import { StrategyStoreError } from "./errors";

const IndexedFormSchema = z.object({
  lengths: z.tuple([z.number(), z.number(), z.number()]),
  terms: z.array(z.tuple([z.string(), z.number()])),
});

/**
 * What a SQL row's postings hold, stored on the row (JSON text or jsonb): removing them needs no
 * re-tokenising, and ranking reads the row's terms from it instead of tokenising its text.
 */
export type IndexedForm = z.output<typeof IndexedFormSchema>;

export function indexedForm(terms: DocumentTerms): IndexedForm {
  return { lengths: [...terms.lengths], terms: terms.postings.map((p) => [p.term, p.impact]) };
}

/** Reads a stored form (JSON text, or the parsed value a jsonb column gives); malformed is a typed `backend` error. */
export function readIndexedForm(stored: unknown): IndexedForm {
  let value = stored;
  if (typeof stored === "string") {
    try {
      value = JSON.parse(stored);
    } catch (cause) {
      throw malformed(cause);
    }
  }
  const parsed = IndexedFormSchema.safeParse(value);
  if (!parsed.success) throw malformed(parsed.error);
  return parsed.data;
}

/** The distinct terms a stored form lists: a record's index terms, for ranking. */
export function indexedTerms(stored: unknown): Set<string> {
  return new Set(readIndexedForm(stored).terms.map(([term]) => term));
}

/**
 * A record's distinct index terms as one space-separated text (a term is letters and digits, never
 * a space): a column ranking can read per candidate without parsing the JSON form.
 */
export function termsText(terms: DocumentTerms): string {
  return terms.postings.map((posting) => posting.term).join(" ");
}

/** Membership in a record's index terms: all ranking asks of them. */
export interface TermSet {
  has(term: string): boolean;
}

/**
 * The terms {@link termsText} wrote, asked of the text itself: a search ranks dozens of candidates
 * per call, and splitting each one's text into a set was most of what it allocated. Anything but a
 * string is a typed `backend` error.
 */
export function termsFromText(stored: unknown): TermSet {
  if (typeof stored !== "string") throw malformed(new TypeError("terms is not text"));
  const padded = ` ${stored} `;
  return { has: (term) => term !== "" && !term.includes(" ") && padded.includes(` ${term} `) };
}

function malformed(cause: unknown): StrategyStoreError {
  return new StrategyStoreError("backend", "a stored strategy row has a malformed index entry", { cause });
}
