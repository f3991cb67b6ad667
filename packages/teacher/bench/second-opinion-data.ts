import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCsvRecords } from "./csv";

/** The second-opinion models whose recorded GSM8K answers ship in `data/re2-gsm8k`. */
export const SECOND_MODELS = ["gpt-4o-mini", "gpt-3.5-turbo"] as const;
export type SecondModel = (typeof SECOND_MODELS)[number];

/** One recorded second answer: the final answer (empty when none) and the recorded reply's length. */
export interface SecondAnswer {
  answer: string;
  outputTokens: number;
}

/** A model's recorded answers by GSM8K test index; throws on a malformed or missing row. */
export function loadSecondOpinions(model: SecondModel): Map<number, SecondAnswer> {
  const file = join(dirname(fileURLToPath(import.meta.url)), "data", "re2-gsm8k", `${model}.csv`);
  const answers = new Map<number, SecondAnswer>();
  for (const [n, row] of parseCsvRecords(readFileSync(file, "utf8")).entries()) {
    const index = Number(row.index);
    const outputTokens = Number(row.output_tokens);
    if (!Number.isInteger(index) || index !== n || !Number.isInteger(outputTokens) || outputTokens < 0)
      throw new Error(`${model}.csv row ${n + 2}: malformed`);
    answers.set(index, { answer: row.answer ?? "", outputTokens });
  }
  return answers;
}
