import type { TaskResult } from "@x/runner";
import type { TeacherRunResult } from "@x/teacher";
import type { AppEvent, RunSummary } from "./render/events";
import type { MemoryTally } from "./store";

/** A run's row of the closing table: student and teacher spend together, and the teacher's part of it. */
export function summarize(label: string, result: TaskResult | TeacherRunResult, memory: MemoryTally = { used: 0, stored: 0 }): RunSummary {
  const teacher = "teacherStats" in result ? result.teacherStats : undefined;
  const teacherTokens = teacher?.tokens ?? 0;
  const tokens = result.stats.tokens + teacherTokens;
  return {
    label,
    status: result.status,
    turns: result.stats.turns,
    tokens,
    costMicroUsd: result.stats.costMicroUsd + (teacher?.costMicroUsd ?? 0),
    teacherShare: tokens === 0 ? 0 : teacherTokens / tokens,
    strategiesUsed: memory.used,
    strategiesStored: memory.stored,
  };
}

export function resultEvent(label: string, result: TaskResult | TeacherRunResult, memory?: MemoryTally): Extract<AppEvent, { type: "result" }> {
  return {
    type: "result",
    label,
    summary: summarize(label, result, memory),
    output: result.output,
    terminal: { code: result.terminal.code, message: result.terminal.message },
  };
}
