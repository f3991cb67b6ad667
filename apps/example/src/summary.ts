import type { CouncilResult } from "@x/council";
import type { ChildRunStats, TaskResult } from "@x/runner";
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
    ...(result.stats.children?.length
      ? { children: result.stats.children.map((child) => childSummary(child, result.stats.usage.estimated === true)) }
      : {}),
  };
}

/** A council's row: every review and critique pass of its run tree, counted once; its turns are the passes'. */
export function councilSummary(label: string, result: CouncilResult): RunSummary {
  return {
    label,
    status: result.status,
    turns: (result.stats.children ?? []).reduce((n, pass) => n + pass.turns, result.stats.turns),
    tokens: result.stats.tokens,
    tokensEstimated: result.stats.usage.estimated === true,
    costMicroUsd: result.stats.costMicroUsd,
    teacherShare: 0,
    strategiesUsed: 0,
    strategiesStored: 0,
  };
}

/** A direct sub-run's row: its own and its descendants' spend, all of it inside its parent's numbers. */
function childSummary(child: ChildRunStats, estimated: boolean): RunSummary {
  return {
    label: child.toolName,
    status: child.status,
    turns: child.turns,
    tokens: child.tokens,
    // The parent's usage holds the child's: an estimate anywhere in it marks the child's too.
    tokensEstimated: estimated,
    costMicroUsd: child.costMicroUsd,
    teacherShare: 0,
    strategiesUsed: 0,
    strategiesStored: 0,
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
