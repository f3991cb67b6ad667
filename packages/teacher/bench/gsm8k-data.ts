import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCsvRecords } from "./csv";

export const STUDENT_COLUMN = "mistralai/Mixtral-8x7B-Instruct-v0.1";
export const TEACHER_COLUMN = "gpt-4-1106-preview";

/** One GSM8K test question with both models' recorded responses and their recorded correctness. */
export interface Gsm8kItem {
  index: number;
  /** The question's line in `test.jsonl` (the GSM8K test set's own order). */
  testIndex: number;
  question: string;
  /** The reference's number after `#### `. */
  reference: string;
  studentResponse: string;
  studentCorrect: boolean;
  teacherResponse: string;
  teacherCorrect: boolean;
}

/**
 * The replay data ships inside the repository, beside this file (`data/routellm-gsm8k`, with its licence
 * and source), so a clone needs nothing outside it. `GSM8K_DATA_DIR` points the bench at another copy.
 */
export function locateGsm8kData(): string {
  const override = process.env.GSM8K_DATA_DIR;
  return override ? resolve(override) : join(dirname(fileURLToPath(import.meta.url)), "data", "routellm-gsm8k");
}

function bool(value: string | undefined, where: string): boolean {
  if (value === "True") return true;
  if (value === "False") return false;
  throw new Error(`${where}: expected True/False, got ${JSON.stringify(value)}`);
}

/** Loads the CSV and test.jsonl and joins them by question text; throws on any row that does not join. */
export function loadGsm8k(dir = locateGsm8kData()): Gsm8kItem[] {
  const references = new Map<string, { reference: string; testIndex: number }>();
  const lines = readFileSync(join(dir, "test.jsonl"), "utf8").split("\n");
  for (const [testIndex, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const { question, answer } = JSON.parse(line) as { question: string; answer: string };
    const reference = answer.split("#### ").at(-1)?.trim();
    if (!reference) throw new Error(`test.jsonl: no "#### " answer for ${question.slice(0, 60)}`);
    references.set(question.trim(), { reference: normaliseNumber(reference), testIndex });
  }
  const records = parseCsvRecords(readFileSync(join(dir, "gsm8k_responses.csv"), "utf8"));
  return records.map((row, index) => {
    const question = (row.prompt ?? "").trim();
    const known = references.get(question);
    if (known === undefined) throw new Error(`CSV row ${index + 2}: question not in test.jsonl`);
    return {
      index,
      testIndex: known.testIndex,
      question,
      reference: known.reference,
      studentResponse: row[`${STUDENT_COLUMN}_response`] ?? "",
      studentCorrect: bool(row[STUDENT_COLUMN], `CSV row ${index + 2} ${STUDENT_COLUMN}`),
      teacherResponse: row[`${TEACHER_COLUMN}_response`] ?? "",
      teacherCorrect: bool(row[TEACHER_COLUMN], `CSV row ${index + 2} ${TEACHER_COLUMN}`),
    };
  });
}

/** `1,234.50` → `1234.5`; `$18.` → `18`. */
export function normaliseNumber(text: string): string {
  const cleaned = text.replace(/[$,\s]/g, "").replace(/\.$/, "");
  const value = Number(cleaned);
  return Number.isFinite(value) ? String(value) : cleaned;
}

const NUMBER = /-?\$?\d[\d,]*(?:\.\d+)?/g;

/** The model's final number: after `#### `, else after "the answer is", else the last number in the text. */
export function extractFinalNumber(response: string): string | undefined {
  const hashed = response.match(/####\s*(-?\$?\d[\d,]*(?:\.\d+)?)/g);
  if (hashed) return normaliseNumber(hashed.at(-1)!.replace(/####\s*/, ""));
  const stated = [...response.matchAll(/answer is:?\s*\**\s*(-?\$?\d[\d,]*(?:\.\d+)?)/gi)];
  if (stated.length > 0) return normaliseNumber(stated.at(-1)![1]!);
  const numbers = response.match(NUMBER);
  return numbers ? normaliseNumber(numbers.at(-1)!) : undefined;
}

/** How often "extracted number = reference" agrees with the CSV's True/False, per model. */
export function extractorAgreement(items: readonly Gsm8kItem[]): { student: number; teacher: number } {
  let student = 0;
  let teacher = 0;
  for (const item of items) {
    if ((extractFinalNumber(item.studentResponse) === item.reference) === item.studentCorrect) student++;
    if ((extractFinalNumber(item.teacherResponse) === item.reference) === item.teacherCorrect) teacher++;
  }
  return { student: student / items.length, teacher: teacher / items.length };
}
