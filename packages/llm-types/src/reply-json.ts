/** One JSON value found in a model's reply, with the text it was read from. */
export interface ReplyJson {
  text: string;
  value: unknown;
}

/**
 * The JSON values a model meant to send inside whatever it actually sent, best first: the whole
 * reply, each fenced block (any language tag), then each outermost balanced `{…}` or `[…]` in the
 * prose (braces inside JSON strings do not count). The caller keeps the first its schema accepts,
 * so prose around the JSON, or a second object after it, never spoils the one that is there.
 */
export function* replyJson(text: string): Generator<ReplyJson> {
  const seen = new Set<string>();
  const fresh = (found: ReplyJson | undefined): found is ReplyJson => {
    if (!found || seen.has(found.text)) return false;
    seen.add(found.text);
    return true;
  };

  const whole = readJson(text);
  if (fresh(whole)) yield whole;

  for (const fence of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const found = readJson(fence[1] ?? "");
    if (fresh(found)) yield found;
  }

  for (let start = nextOpening(text, 0); start !== -1;) {
    const end = matchingBrace(text, start);
    const found = end === -1 ? undefined : readJson(text.slice(start, end + 1));
    if (fresh(found)) yield found;
    // What sits inside a value already read is part of it, not a value of the reply's own.
    start = nextOpening(text, found ? end + 1 : start + 1);
  }
}

function readJson(slice: string): ReplyJson | undefined {
  const trimmed = slice.trim();
  if (trimmed === "") return undefined;
  try {
    return { text: trimmed, value: JSON.parse(trimmed) as unknown };
  } catch {
    return undefined;
  }
}

/** The JSON objects among {@link replyJson}'s values (a reply whose fields a reader picks). */
export function* replyJsonObjects(text: string): Generator<Record<string, unknown>> {
  for (const { value } of replyJson(text))
    if (typeof value === "object" && value !== null && !Array.isArray(value)) yield value as Record<string, unknown>;
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace === -1) return bracket;
  return bracket === -1 ? brace : Math.min(brace, bracket);
}

/**
 * Index of the bracket closing the `{` or `[` at `start`, skipping brackets inside JSON strings; -1
 * when it never closes. Both kinds count toward the depth; `JSON.parse` then checks they pair up.
 */
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
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
