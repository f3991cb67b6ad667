import type { TaskResult } from "@x/runner";
import type { TeacherRunResult } from "@x/teacher";
import type { AppEvent, RunSummary } from "./render/events";

/** A run's row of the closing table: student and teacher spend together, and the teacher's part of it. */
export function summarize(label: string, result: TaskResult | TeacherRunResult): RunSummary {
  const teacher = "teacherStats" in result ? result.teacherStats : undefined;
  const strategies = "strategies" in result ? result.strategies : undefined;
  const teacherTokens = teacher?.tokens ?? 0;
  const tokens = result.stats.tokens + teacherTokens;
  return {
    label,
    status: result.status,
    turns: result.stats.turns,
    tokens,
    tokensEstimated: result.stats.usage.estimated === true,
    costMicroUsd: result.stats.costMicroUsd + (teacher?.costMicroUsd ?? 0),
    teacherShare: tokens === 0 ? 0 : teacherTokens / tokens,
    strategiesUsed: strategies?.recalled.length ?? 0,
    strategiesStored: strategies?.stored ? 1 : 0,
  };
}

export function resultEvent(
  label: string,
  result: TaskResult | TeacherRunResult,
): Extract<AppEvent, { type: "result" }> {
  return {
    type: "result",
    label,
    summary: summarize(label, result),
    output: result.output,
    terminal: { code: result.terminal.code, message: result.terminal.message },
  };
}
