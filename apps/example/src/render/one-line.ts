/** Text on one terminal line, cut to `max` characters (`…` marks a cut). */
export function oneLine(text: string, max: number): string {
  // Text from files, tools and models reaches a terminal: no escape sequence of theirs may move the
  // cursor, recolour or retitle it.
  const flat = text
    .replace(/\s+/g, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
