import type { ToolResultMessage } from "@x/llm-types";
import {
  emptyRunStats,
  sumRunStats,
  type ObserverStop,
  type Runner,
  type RunStats,
  type TaskResult,
  type TaskSpec,
  type ToolResultInfo,
} from "@x/runner";
import type { ResolvedTeacherConfig } from "./config";
import { askMonitor, type SideCallSpec } from "./side-calls";
import type { StuckTracker } from "./stuck";

/** The `observerCode` a student run ends with when teacher mode stops it as stuck. */
export const STUCK_STOP_CODE = "teacher.stuck";

/** What the stuck monitor of a run in flight has cost (on a retake, before it), and where to report more. */
export interface MonitorSpend {
  spent: RunStats | undefined;
  onSpent: (stats: RunStats) => Promise<void>;
}

/** One student run, with the Tier-0 stuck detector watching its tool results. */
export async function runStudent(
  runner: Runner,
  run: (spec: TaskSpec) => Promise<TaskResult>,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  helper: SideCallSpec,
  tracker: StuckTracker,
  task: string,
  monitor: MonitorSpend,
): Promise<{ result: TaskResult; helperStats: RunStats }> {
  let helperStats = monitor.spent ?? emptyRunStats();
  const onToolResult = async (info: ToolResultInfo): Promise<void | ObserverStop> => {
    // The host's own observer goes first; its stop is its decision, never a trigger.
    let own: void | ObserverStop = undefined;
    try {
      own = await spec.onToolResult?.(info);
    } catch {
      // Ignored, as the runner ignores a throwing observer; the stall watch below still runs.
    }
    if (own) return own;
    const signal = tracker.record({
      toolName: info.result.toolName,
      isError: info.result.isError,
      text: textOf(info.result),
    });
    if (signal.kind === "ok") return;
    if (signal.kind === "suspected" && config.useStuckMonitor) {
      const verdict = await askMonitor(runner, helper, config, task, tracker.recent());
      helperStats = sumRunStats(helperStats, verdict.stats);
      await monitor.onSpent(helperStats);
      // An unreadable monitor leaves the tracker's suspicion standing.
      if (verdict.value === false) return;
    }
    const why = `${signal.tool} failed ${signal.consecutive} time(s) in a row, ${signal.cumulative} in this run`;
    return { stop: { code: STUCK_STOP_CODE, message: `stopped as stuck: ${why}` } };
  };
  const result = await run({ ...spec, onToolResult });
  return { result, helperStats };
}

/** A tool result's text, as the stuck tracker reads it. */
export function textOf(result: ToolResultMessage): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join(" ");
}
