import { parseNumber } from "./final-answer";

/** One written calculation: `left = result`, as it appears in the text. */
export interface Equation {
  /** The expression as written, e.g. `10 x 6`. */
  left: string;
  /** What the text says it equals. */
  claimed: number;
  /** What it does equal; undefined when the expression could not be read. */
  computed: number | undefined;
}

type Token = { kind: "num"; value: number } | { kind: "op"; op: string };

function tokenize(expr: string): Token[] | undefined {
  const tokens: Token[] = [];
  const re = /\s*(?:(\$?\d[\d,]*(?:\.\d+)?|\.\d+)|([-+*/x×÷()]))/gy;
  let at = 0;
  while (at < expr.length) {
    re.lastIndex = at;
    const m = re.exec(expr);
    if (!m) return expr.slice(at).trim() === "" ? tokens : undefined;
    at = re.lastIndex;
    if (m[1] !== undefined) {
      const value = parseNumber(m[1]);
      if (value === undefined) return undefined;
      tokens.push({ kind: "num", value });
    } else tokens.push({ kind: "op", op: m[2]! === "x" || m[2] === "×" ? "*" : m[2] === "÷" ? "/" : m[2]! });
  }
  return tokens;
}

/** Recursive descent over + - * / and parentheses; undefined on anything else. */
export function evaluate(expr: string): number | undefined {
  const tokens = tokenize(expr);
  if (!tokens || tokens.length === 0) return undefined;
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const atom = (): number | undefined => {
    const t = tokens[i++];
    if (!t) return undefined;
    if (t.kind === "num") return t.value;
    if (t.op === "-") {
      const v = atom();
      return v === undefined ? undefined : -v;
    }
    if (t.op !== "(") return undefined;
    const v = sum();
    const close = tokens[i++];
    return close?.kind === "op" && close.op === ")" ? v : undefined;
  };
  const product = (): number | undefined => {
    let v = atom();
    for (let t = peek(); v !== undefined && t?.kind === "op" && (t.op === "*" || t.op === "/"); t = peek()) {
      i++;
      const r = atom();
      v = r === undefined ? undefined : t.op === "*" ? v * r : v / r;
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    for (let t = peek(); v !== undefined && t?.kind === "op" && (t.op === "+" || t.op === "-"); t = peek()) {
      i++;
      const r = product();
      v = r === undefined ? undefined : t.op === "+" ? v + r : v - r;
    }
    return v;
  };
  const value = sum();
  return i === tokens.length && value !== undefined && Number.isFinite(value) ? value : undefined;
}

const LEFT_CHARS = /[\d.,$()+\-*/x×÷ \t]/;
const RESULT = /^\s*(\$?-?\d[\d,]*(?:\.\d+)?)/;

/**
 * Every `a op b = c` in the text (GSM8K's `<<a*b=c>>` annotations included): the expression is the
 * run of digits, operators and parentheses just before the `=`, cut at a list comma; it must hold an
 * operator. A result followed by another operator starts a chained step and is not read as a claim.
 */
export function equations(written: string): Equation[] {
  // Markdown and LaTeX spellings of the operators: `\*`, `\times`, `\div`, `\cdot`.
  const text = written
    .replace(/\\\*/g, "*")
    .replace(/\\(?:times|cdot)/g, "×")
    .replace(/\\div/g, "÷");
  const found: Equation[] = [];
  for (let eq = text.indexOf("="); eq !== -1; eq = text.indexOf("=", eq + 1)) {
    let start = eq;
    while (start > 0 && LEFT_CHARS.test(text[start - 1]!)) start--;
    // `x` may be a multiplication sign or the end of a word ("box"): the expression starts at a number.
    let left = text.slice(start, eq);
    left = left.slice(left.lastIndexOf(", ") + 1).trim();
    left = left.replace(/^[^\d($-]+/, "");
    if (!/\d\s*[-+*/x×÷]\s*[\d($]/.test(left)) continue;
    const right = RESULT.exec(text.slice(eq + 1));
    if (!right) continue;
    const after = text.slice(eq + 1 + right[0].length);
    if (/^\s*[-+*/x×÷]\s*[\d($]/.test(after)) continue;
    const claimed = parseNumber(right[1]!.replace(/,$/, ""));
    if (claimed === undefined) continue;
    found.push({ left, claimed, computed: evaluate(balance(left)) });
  }
  return found;
}

/** Drops unmatched leading `(` or trailing `)` left over from cutting the expression out of prose. */
function balance(expr: string): string {
  let text = expr;
  const count = (c: string) => [...text].filter((ch) => ch === c).length;
  while (count("(") > count(")") && text.startsWith("(")) text = text.slice(1);
  while (count(")") > count("(") && text.endsWith(")")) text = text.slice(0, -1);
  return text;
}

/** Whether a claimed result is the computed one, allowing for the rounding its written decimals show. */
export function agrees(claimed: number, computed: number, written?: string): boolean {
  const decimals = written?.split(".")[1]?.replace(/\D/g, "").length ?? decimalsOf(claimed);
  const tolerance = 0.5 * 10 ** -decimals + 1e-9 * Math.max(1, Math.abs(computed));
  return Math.abs(claimed - computed) <= tolerance;
}

function decimalsOf(n: number): number {
  return String(n).split(".")[1]?.length ?? 0;
}
