/**
 * Builds `data/re2-gsm8k/*.csv` from the Re2 paper's public result logs (Tebmer/Rereading-LLM-Reasoning,
 * Apache-2.0): per GSM8K test question, the final answer a second model gave and how long its reply was.
 * Run: `node --import tsx bench/re2-convert.ts <checkout of the Re2 repository>`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod/v4";
import { estimateTokens } from "./replay-brain";

/** The baseline (read once) logs, "vanilla" prompting: the bare question with a `\boxed{}` instruction. */
export const RE2_SOURCES = {
  "gpt-4o-mini": "results/gsm_gpt-4o-mini-2024-07-18_topp1.0_temp0.0_majority1_readtimes1_20240926_221724.jsonl",
  "gpt-3.5-turbo": "results/gsm_topp1.0_temp0.0_majority1_20230828_1157.jsonl",
} as const;

const LogLine = z.object({
  id: z.number().int().min(0),
  input: z.string(),
  vanilla: z.object({
    generation: z.array(z.string()).nullable(),
    answer: z.union([z.string(), z.number()]).nullable(),
    score: z.number(),
  }),
});

/** `3.0` → `3`; an unparsable answer is kept as written; none is the empty string. */
function answerText(answer: string | number | null): string {
  if (answer === null) return "";
  const value = Number(String(answer).replace(/[$,\s]/g, ""));
  return Number.isFinite(value) && String(answer).trim() !== "" ? String(value) : String(answer).replace(/[\n,]/g, " ");
}

function convert(checkout: string, file: string, questions: readonly string[]): string {
  const rows: string[] = ["index,answer,output_tokens,re2_score"];
  const byIndex = new Map<number, z.infer<typeof LogLine>>();
  for (const line of readFileSync(join(checkout, file), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const entry = LogLine.parse(JSON.parse(line));
    // The log's id is the question's line in the GSM8K test set; the text must agree.
    if (questions[entry.id]?.trim() !== entry.input.trim())
      throw new Error(`${file}: id ${entry.id} is another question`);
    byIndex.set(entry.id, entry);
  }
  if (byIndex.size !== questions.length) throw new Error(`${file}: ${byIndex.size} of ${questions.length} questions`);
  for (let index = 0; index < questions.length; index++) {
    const { vanilla } = byIndex.get(index)!;
    const reply = vanilla.generation?.[0] ?? "";
    rows.push(`${index},${answerText(vanilla.answer)},${estimateTokens(reply)},${vanilla.score}`);
  }
  return `${rows.join("\n")}\n`;
}

const checkout = process.argv[2];
if (checkout === undefined) throw new Error("usage: re2-convert.ts <checkout of Tebmer/Rereading-LLM-Reasoning>");
const here = dirname(fileURLToPath(import.meta.url));
const questions = readFileSync(join(here, "data", "routellm-gsm8k", "test.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { question: string }).question);
for (const [model, file] of Object.entries(RE2_SOURCES))
  writeFileSync(join(here, "data", "re2-gsm8k", `${model}.csv`), convert(checkout, file, questions));
