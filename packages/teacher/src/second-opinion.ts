import type { ModelRef, RoleName } from "@x/llm-types";
import type { Runner, TaskResult } from "@x/runner";
import { sameNumber, type AnswerCompare } from "./answer-compare";
import type { VerifyInput, VerifyVerdict } from "./config";
import { TeacherError } from "./errors";
import { clip } from "./side-calls";

/** Options of {@link secondOpinion}. */
export interface SecondOpinionOptions {
  /** The runner the second model is asked through: the one `runWithTeacher` runs on. */
  runner: Runner;
  /** The second model. Give this or `role`. */
  model?: ModelRef;
  /** A runner role naming the second model (e.g. `helper`). Give this or `model`. */
  role?: RoleName;
  /** The second model's system prompt. Default: none — it gets the bare task. */
  systemPrompt?: string;
  /** How the student's answer and the second model's are compared. Default {@link sameNumber}. */
  compare?: AnswerCompare;
  /**
   * How many tasks' second answers are kept, so a takeover's answer to the same task is compared with
   * the answer already paid for instead of a new call. Default 256.
   */
  remember?: number;
}

/**
 * A `verify` that asks a second, cheap model the same task (the task alone, as a plain call on it
 * would be asked) and compares the final answers with `compare`: agreement passes, disagreement fails
 * with the second model's answer as the reason, and a second answer that cannot be compared (no
 * answer, no number, no parse) is `undefined` — "cannot tell". The second model's call is billed: its
 * stats are the verdict's `usage`. Its answer to a task is asked once; the takeover's check reuses it.
 */
export function secondOpinion(
  options: SecondOpinionOptions,
): (input: Pick<VerifyInput, "task" | "output">) => Promise<VerifyVerdict> {
  if ((options.model === undefined) === (options.role === undefined))
    throw new TeacherError("teacher.config_invalid", "secondOpinion: give exactly one of model and role");
  const remember = options.remember ?? 256;
  if (!Number.isInteger(remember) || remember < 1)
    throw new TeacherError("teacher.config_invalid", "secondOpinion: remember must be a whole number ≥ 1");
  const compare = options.compare ?? sameNumber;
  const target = options.model !== undefined ? { model: options.model } : { role: options.role };
  const asked = new Map<string, Promise<TaskResult>>();

  const ask = (task: string): { answer: Promise<TaskResult>; fresh: boolean } => {
    const known = asked.get(task);
    if (known) return { answer: known, fresh: false };
    const answer = options.runner.runTask({
      ...target,
      objective: task,
      maxTurns: 1,
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    });
    asked.set(task, answer);
    // Oldest first out: a Map iterates in insertion order.
    if (asked.size > remember) asked.delete(asked.keys().next().value!);
    return { answer, fresh: true };
  };

  return async ({ task, output }) => {
    const { answer, fresh } = ask(task);
    const second = await answer;
    // Billed once, on the check that made the call; a reused answer cost nothing more.
    const usage = fresh ? { usage: second.stats } : {};
    if (second.status !== "completed") {
      asked.delete(task);
      return { reason: `the second model gave no answer (${second.terminal.code})`, ...usage };
    }
    const same = compare(output, second.output);
    if (same === undefined) return { reason: "the two answers could not be compared", ...usage };
    if (same) return { pass: true, ...usage };
    return {
      pass: false,
      reason: `a second model answers differently: ${clip(lastLine(second.output), 200)}`,
      ...usage,
    };
  };
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .at(-1)
      ?.trim() ?? ""
  );
}
