import { replyJson } from "@x/llm-types";
import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";
import { finalNumber } from "./final-answer";

/**
 * Whether two answers to one task agree: `true`, `false`, or `undefined` when they cannot be compared
 * (one of them states no answer in the form the comparison reads).
 */
export type AnswerCompare = (studentAnswer: string, secondAnswer: string) => boolean | undefined;

/** The final numbers agree (`#### n`, `\boxed{n}`, "the answer is n", else the last line's last number). */
export const sameNumber: AnswerCompare = (a, b) => {
  const x = finalNumber(a);
  const y = finalNumber(b);
  if (x === undefined || y === undefined) return undefined;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
};

/** The answers are the same text once trimmed, with runs of whitespace as one space. */
export const sameText: AnswerCompare = (a, b) => {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ");
  if (norm(a) === "" || norm(b) === "") return undefined;
  return norm(a) === norm(b);
};

/**
 * Each answer's first JSON value that `schema` accepts, compared by `equal` (default: the same JSON
 * with object keys in any order). An answer with no such value cannot be compared.
 */
export function sameParsed<S extends z4.$ZodType>(
  schema: S,
  equal: (a: z4.output<S>, b: z4.output<S>) => boolean = (a, b) => stableJson(a) === stableJson(b),
): AnswerCompare {
  const read = (text: string): { value: z4.output<S> } | undefined => {
    for (const { value: candidate } of replyJson(text)) {
      const parsed = z.safeParse(schema, candidate);
      if (parsed.success) return { value: parsed.data };
    }
    return undefined;
  };
  return (a, b) => {
    const x = read(a);
    const y = read(b);
    return x === undefined || y === undefined ? undefined : equal(x.value, y.value);
  };
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
