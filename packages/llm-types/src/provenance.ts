import { z } from "zod";
import type { UserMessage } from "./messages";

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

/** A user-role message's text, images as `[image]`. */
export function userMessageText(message: Pick<UserMessage, "content">): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}

/**
 * A user-role message's text split by who wrote it. A message with no provenance is the user's (a
 * host's own history). Parts that do not add up to the text's length, or parts on a message whose
 * content is not one string, cannot be trusted to say where the user's words are: the whole text is
 * then the `engine`'s — never the user's.
 */
export function attributedUserText(message: Pick<UserMessage, "content" | "provenance">): AttributedText[] {
  const text = userMessageText(message);
  const { provenance } = message;
  if (provenance === undefined) return [{ source: "user", text }];
  if (typeof provenance === "string") return [{ source: provenance, text }];
  const total = provenance.reduce((sum, part) => sum + part.chars, 0);
  if (typeof message.content !== "string" || total !== text.length) return [{ source: "engine", text }];
  const pieces: AttributedText[] = [];
  let at = 0;
  for (const part of provenance) {
    pieces.push({ source: part.source, text: text.slice(at, at + part.chars) });
    at += part.chars;
  }
  return pieces;
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
