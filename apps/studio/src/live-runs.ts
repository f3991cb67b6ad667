import type { RunEvent, TaskResult } from "@x/runner";
import { UIMessageEncoder, type UIMessageChunk } from "@x/ui-stream";

/** A run the studio is watching: its UI message chunks so far, and who waits for more. */
export interface LiveRun {
  runId: string;
  label: string;
  startedAt: string;
  /** `handed_off`: the decision went to a queue, whose worker runs the rest. */
  status: "running" | TaskResult["status"] | "refused" | "handed_off";
  chunks: UIMessageChunk[];
  tokens: number;
  costMicroUsd: number;
  error?: string;
}

/**
 * The runs the studio started or resumed, as AI SDK UI message chunks (`@x/ui-stream`): a page that connects
 * late is sent every chunk so far, then each new one. Kept in memory, newest last.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>();
  private readonly listeners = new Map<string, Set<(chunk: UIMessageChunk | undefined) => void>>();

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  list(): LiveRun[] {
    return [...this.runs.values()];
  }

  /** Starts watching a run (a resume replaces the watch of the run it continues). */
  start(
    runId: string,
    label: string,
    work: (emit: (event: RunEvent) => void) => Promise<TaskResult | undefined>,
  ): LiveRun {
    const encoder = new UIMessageEncoder({ sendPark: false });
    const run: LiveRun = {
      runId,
      label,
      startedAt: new Date().toISOString(),
      status: "running",
      chunks: [],
      tokens: 0,
      costMicroUsd: 0,
    };
    this.runs.set(runId, run);
    const push = (chunks: UIMessageChunk[]) => {
      for (const chunk of chunks) {
        run.chunks.push(chunk);
        for (const listener of this.listeners.get(runId) ?? []) listener(chunk);
      }
    };
    push(encoder.start());
    const emit = (event: RunEvent) => {
      if (event.type === "run_end") {
        run.status = event.result.status;
        run.tokens = event.result.stats.tokens;
        run.costMicroUsd = event.result.stats.costMicroUsd;
      }
      push(encoder.encode(event));
    };
    void work(emit)
      .catch((error: unknown) => {
        run.status = "refused";
        run.error = error instanceof Error ? error.message : String(error);
        push(encoder.fail(error));
      })
      .finally(() => {
        if (run.status === "running") run.status = "handed_off";
        for (const listener of this.listeners.get(runId) ?? []) listener(undefined);
      });
    return run;
  }

  /** Every chunk so far, then each new one; `undefined` once the run ended. Returns the unsubscribe function. */
  subscribe(runId: string, listener: (chunk: UIMessageChunk | undefined) => void): () => void {
    const run = this.runs.get(runId);
    for (const chunk of run?.chunks ?? []) listener(chunk);
    if (!run || run.status !== "running") {
      listener(undefined);
      return () => undefined;
    }
    const set = this.listeners.get(runId) ?? new Set();
    set.add(listener);
    this.listeners.set(runId, set);
    return () => set.delete(listener);
  }
}
