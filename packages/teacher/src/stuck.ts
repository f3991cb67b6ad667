/** What the tracker concluded after one tool result. */
export type StuckSignal =
  /** Nothing to do. */
  | { kind: "ok" }
  /** `threshold` failures of one tool in a row: worth a second opinion before escalating. */
  | { kind: "suspected"; tool: string; consecutive: number; cumulative: number }
  /** `hardOverride` failures of one tool in this run: escalate whatever a monitor would say. */
  | { kind: "hard"; tool: string; consecutive: number; cumulative: number };

export interface StuckTrackerOptions {
  threshold: number;
  hardOverride: number;
}

/** A tracker's counts as JSON: kept with a queued teacher task's state, so a retake goes on counting. */
export interface StuckSnapshot {
  streakTool?: string;
  streak: number;
  failures: Record<string, number>;
  recent: string[];
}

/**
 * Tier-0 stall detector: counts failures per tool, both in a row (any other tool result breaks the
 * streak) and over the whole run. It signals "suspected" once each time a streak reaches the
 * threshold — a monitor that said "not stuck" is not asked again until a new streak builds — and
 * "hard" once a tool's failures reach the override, so a stall the monitor waves through still ends.
 */
export class StuckTracker {
  private streakTool: string | undefined;
  private streak = 0;
  private readonly failures = new Map<string, number>();
  private readonly recentLines: string[] = [];

  constructor(private readonly options: StuckTrackerOptions) {}

  record(result: { toolName: string; isError: boolean; text?: string }): StuckSignal {
    this.remember(result);
    if (!result.isError) {
      this.streakTool = undefined;
      this.streak = 0;
      return { kind: "ok" };
    }
    const tool = result.toolName;
    this.streak = this.streakTool === tool ? this.streak + 1 : 1;
    this.streakTool = tool;
    const cumulative = (this.failures.get(tool) ?? 0) + 1;
    this.failures.set(tool, cumulative);
    const counts = { tool, consecutive: this.streak, cumulative };
    if (cumulative >= this.options.hardOverride) return { kind: "hard", ...counts };
    if (this.streak === this.options.threshold) return { kind: "suspected", ...counts };
    return { kind: "ok" };
  }

  /** Recent tool results as short lines, newest last: what the monitor and teacher are shown. */
  recent(limit = 8): string[] {
    return this.recentLines.slice(-limit);
  }

  snapshot(): StuckSnapshot {
    const snap: StuckSnapshot = {
      streak: this.streak,
      failures: Object.fromEntries(this.failures),
      recent: [...this.recentLines],
    };
    if (this.streakTool !== undefined) snap.streakTool = this.streakTool;
    return snap;
  }

  /** Back to the counts of `snap` (taken by {@link snapshot}, here or in another process). */
  restore(snap: StuckSnapshot): void {
    this.streakTool = snap.streakTool;
    this.streak = snap.streak;
    this.failures.clear();
    for (const [tool, count] of Object.entries(snap.failures)) this.failures.set(tool, count);
    this.recentLines.splice(0, this.recentLines.length, ...snap.recent);
  }

  /** A new student session after a correction starts with a clean streak, but the run's totals stay. */
  resetStreak(): void {
    this.streakTool = undefined;
    this.streak = 0;
  }

  private remember(result: { toolName: string; isError: boolean; text?: string }): void {
    const text = (result.text ?? "").replace(/\s+/g, " ").trim();
    const shown = text.length > 300 ? `${text.slice(0, 300)}…` : text;
    this.recentLines.push(`${result.toolName} → ${result.isError ? "ERROR" : "ok"}${shown ? `: ${shown}` : ""}`);
    if (this.recentLines.length > 50) this.recentLines.shift();
  }
}
