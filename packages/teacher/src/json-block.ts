/**
 * Finds the JSON object a model meant to send inside whatever it actually sent: the whole text, a
 * ```json fence, or the first balanced `{...}` in prose. Candidates are yielded best-first; the caller
 * keeps the first one its schema accepts.
 */
export function* jsonObjectCandidates(text: string): Generator<Record<string, unknown>> {
  const seen = new Set<string>();
  const attempt = (slice: string): Record<string, unknown> | undefined => {
    const trimmed = slice.trim();
    if (!trimmed.startsWith("{") || seen.has(trimmed)) return undefined;
    seen.add(trimmed);
    try {
      const value: unknown = JSON.parse(trimmed);
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };

  const whole = attempt(text);
  if (whole) yield whole;

  for (const fence of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const found = attempt(fence[1] ?? "");
    if (found) yield found;
  }

  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const found = attempt(text.slice(start, end + 1));
    if (found) yield found;
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside JSON strings; -1 if unbalanced. */
export function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
