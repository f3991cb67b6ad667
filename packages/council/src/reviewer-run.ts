import { isCodedError } from "@x/llm-types";
import { runSubTask, SUB_RUN_ERROR_CODES, type TaskResult, type ToolContext } from "@x/runner";
import type { z } from "zod/v4";
import { REVIEWER_SYSTEM_PROMPT } from "./prompts";
import type { CouncilReviewer } from "./types";

const DEFAULT_MAX_TURNS = 6;

/** One review or critique run's end: its parsed answer, or why there is none. */
export type PassOutcome<T> =
  { ok: true; value: T; result: TaskResult } | { ok: false; status: string; code: string; result?: TaskResult };

/**
 * Runs one pass of one reviewer as a sub-run of the council's run, so it is held to the council's
 * budget, permissions, ancestor classifier and abort like any child; a deadline of its own stops
 * a reviewer that hangs without stopping the others.
 */
export async function runPass<T>(
  context: ToolContext,
  reviewer: CouncilReviewer,
  objective: string,
  output: z.ZodType<T>,
  timeoutMs: number,
): Promise<PassOutcome<T>> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let result: TaskResult;
  try {
    result = await runSubTask(
      context,
      {
        objective,
        systemPrompt: reviewer.systemPrompt ?? REVIEWER_SYSTEM_PROMPT,
        output,
        maxTurns: reviewer.maxTurns ?? DEFAULT_MAX_TURNS,
        ...(reviewer.model !== undefined ? { model: reviewer.model } : {}),
        ...(reviewer.role !== undefined ? { role: reviewer.role } : {}),
        ...(reviewer.tools ? { tools: reviewer.tools } : {}),
      },
      { signal: deadline },
    );
  } catch (error) {
    if (isCodedError(error, SUB_RUN_ERROR_CODES)) return { ok: false, status: "refused", code: error.code };
    throw error;
  }
  if (result.status === "completed") return { ok: true, value: result.structured as T, result };
  const timedOut = deadline.aborted && !context.signal.aborted;
  return {
    ok: false,
    status: timedOut ? "timeout" : result.status,
    code: timedOut ? "timeout" : result.terminal.code,
    result,
  };
}
