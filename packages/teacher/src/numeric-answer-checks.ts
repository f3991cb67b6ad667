import type { VerifyInput, VerifyVerdict } from "./config";
import { agrees, equations } from "./arithmetic";
import { TeacherError } from "./errors";
import { finalAnswer, numbersIn } from "./final-answer";

/** The signals {@link numericAnswerChecks} can read in a student's own text. */
export const NUMERIC_CHECKS = [
  "arithmetic",
  "final-line",
  "last-result",
  "counting",
  "hedging",
  "unused-quantities",
] as const;
export type NumericCheck = (typeof NUMERIC_CHECKS)[number];

/** Options of {@link numericAnswerChecks}. */
export interface NumericAnswerChecksOptions {
  /**
   * Which signals may fail an answer, in the order they are tried. Default: every one but
   * `unused-quantities`, which also fires on the distractor numbers word problems carry.
   */
  checks?: readonly NumericCheck[];
}

/** The default signals: those that rarely fire on a right answer (see the package's benchmark). */
export const DEFAULT_NUMERIC_CHECKS: readonly NumericCheck[] = NUMERIC_CHECKS.filter((c) => c !== "unused-quantities");

/** Units a "how many …" question may count in fractions; anything else counted is a whole number. */
const MEASURES =
  "hours?|minutes?|seconds?|days?|weeks?|months?|years?|miles?|feet|foot|inches|inch|yards?|meters?|" +
  "kilometers?|km|pounds?|lbs?|ounces?|oz|kilograms?|kg|grams?|liters?|litres?|gallons?|quarts?|pints?|cups?|" +
  "tablespoons?|teaspoons?|dollars?|cents?|percent|times|degrees|square|cubic|acres?|calories|servings?|" +
  "slices?|pieces?|pizzas?|pies?|cakes?|loaves|bags?|boxes|dozens?|tons?|more|fewer|less";
const COUNTING = new RegExp(String.raw`\bhow many (?!(?:\w+ )?(?:${MEASURES})\b)`, "i");
const HEDGES = new RegExp(
  String.raw`\b(?:can(?:no|')t (?:be )?(?:determine|provide|calculate|answer|say|know)|cannot be determined|` +
    String.raw`not enough information|insufficient information|(?:is|are) not (?:given|specified|provided)|` +
    String.raw`I (?:don't|do not) have|it depends|we (?:can't|cannot) know|assum(?:e|ing) that)\b`,
  "i",
);

/** One signal's finding: a reason the answer is wrong, or undefined when the signal sees nothing. */
type Finding = string | undefined;

function arithmetic(output: string): Finding {
  for (const eq of equations(output)) {
    if (eq.computed === undefined || agrees(eq.claimed, eq.computed)) continue;
    return `the step ${eq.left} = ${eq.claimed} is wrong: it is ${round(eq.computed)}`;
  }
  return undefined;
}

function finalLine(output: string): Finding {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return "the answer is empty";
  if (finalAnswer(output)?.marked) return undefined;
  return numbersIn(lines.at(-1)!).length === 0 ? "the final line states no number" : undefined;
}

function lastResult(output: string): Finding {
  const last = equations(output).at(-1);
  const final = finalAnswer(output)?.value;
  if (last === undefined || final === undefined || agrees(final, last.claimed)) return undefined;
  return `the final answer ${final} is not the last computed result ${last.claimed}`;
}

function counting(task: string, output: string): Finding {
  const final = finalAnswer(output)?.value;
  if (final === undefined || Number.isInteger(final) || !COUNTING.test(task)) return undefined;
  return `the question counts things, and ${final} is not a whole number`;
}

function hedging(output: string): Finding {
  const hedge = HEDGES.exec(output)?.[0];
  return hedge === undefined ? undefined : `the answer hedges ("${hedge}")`;
}

function unusedQuantities(task: string, output: string): Finding {
  const used = new Set(numbersIn(output));
  const unused = [...new Set(numbersIn(task))].filter((n) => !used.has(n));
  return unused.length === 0 ? undefined : `quantities in the question are never used: ${unused.join(", ")}`;
}

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/** Each signal on one answer: the reason it fails the answer, or undefined. */
export function numericFindings(task: string, output: string): Record<NumericCheck, Finding> {
  return {
    arithmetic: arithmetic(output),
    "final-line": finalLine(output),
    "last-result": lastResult(output),
    counting: counting(task, output),
    hedging: hedging(output),
    "unused-quantities": unusedQuantities(task, output),
  };
}

/**
 * A `verify` for answers that end in a number, read from the answer's own text with no model call:
 * a calculator re-check of every `a op b = c` step (and `<<a*b=c>>` annotation), a final line that
 * states a number, a final answer equal to the last computed result, a whole number where the question
 * counts things, no hedging, and (off by default) every quantity of the question used. The first
 * signal that fires fails the answer with its reason; when none fires it returns `undefined` — code
 * cannot tell a clean-looking wrong answer from a right one — so the rubric, or a `secondOpinion`
 * after it in {@link verifyInOrder}, decides.
 */
export function numericAnswerChecks(
  options: NumericAnswerChecksOptions = {},
): (input: Pick<VerifyInput, "task" | "output">) => VerifyVerdict {
  const checks = options.checks ?? DEFAULT_NUMERIC_CHECKS;
  for (const check of checks)
    if (!NUMERIC_CHECKS.includes(check))
      throw new TeacherError("teacher.config_invalid", `numericAnswerChecks: unknown check ${String(check)}`);
  return ({ task, output }) => {
    const findings = numericFindings(task, output);
    for (const check of checks) {
      const reason = findings[check];
      if (reason !== undefined) return { pass: false, reason };
    }
    return undefined;
  };
}
