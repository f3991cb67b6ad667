import type { UserMessage } from "./messages";
import type { AttributedText } from "./provenance";

/** A user-role message's text, images as `[image]`. */
function userMessageText(message: Pick<UserMessage, "content">): string {
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
