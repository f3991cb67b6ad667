import { z } from "zod/v4";

/**
 * Who wrote a user-role message. Only `user` is the user's own words; the rest reach the model in
 * the user role for the wire's sake but speak for someone else:
 * `engine` — the runner's own notes and nudges (empty answer, repetition, output format);
 * `teacher` — teacher mode's guidance to the student;
 * `strategy` — strategies recalled from a strategy store;
 * `compaction` — a summary that stands in for compacted history.
 */
export const PROVENANCES = ["user", "engine", "teacher", "strategy", "compaction"] as const;
export const ProvenanceSchema = z.enum(PROVENANCES);
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** One run of characters of a message's text written by one source. */
export const ProvenancePartSchema = z.strictObject({
  source: ProvenanceSchema,
  /** Length of this part, in UTF-16 code units of the message's string content. */
  chars: z.number().int().nonnegative(),
});
export type ProvenancePart = z.infer<typeof ProvenancePartSchema>;

/**
 * A message's provenance: one source for the whole message, or ordered parts that split its string
 * content between sources (recalled strategies written ahead of the user's task, in one message).
 */
export const MessageProvenanceSchema = z.union([ProvenanceSchema, z.array(ProvenancePartSchema).min(1)]);
export type MessageProvenance = z.infer<typeof MessageProvenanceSchema>;

/** A piece of a user-role message's text and who wrote it. */
export interface AttributedText {
  source: Provenance;
  text: string;
}

/**
 * The inverse of {@link attributedUserText}: pieces joined into one text, with the provenance that
 * says who wrote each. Empty pieces leave no part; neighbouring pieces of one source make one part;
 * a text of one source has that source as its whole provenance.
 */
export function joinAttributed(pieces: readonly AttributedText[]): { text: string; provenance: MessageProvenance } {
  const parts: ProvenancePart[] = [];
  for (const { source, text } of pieces) {
    if (text === "") continue;
    const last = parts.at(-1);
    if (last?.source === source) last.chars += text.length;
    else parts.push({ source, chars: text.length });
  }
  const text = pieces.map((piece) => piece.text).join("");
  if (parts.length === 0) return { text, provenance: "engine" };
  return { text, provenance: parts.length === 1 ? parts[0]!.source : parts };
}
