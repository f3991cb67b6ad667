import type { RunEvent, Runner } from "@x/runner";
import type { AppEvent } from "./render/events";

/** The retry events of a run, and of its sub-runs (which arrive wrapped in `sub_run`). */
function retryOf(event: RunEvent): Extract<RunEvent, { type: "retry" }> | undefined {
  if (event.type === "retry") return event;
  return event.type === "sub_run" ? retryOf(event.event) : undefined;
}

/**
 * The runner with every task it runs streamed, so each retry the library makes is reported as it
 * happens ("retrying in 2 s (1/2)"): teacher mode runs its tasks through `runTask`, which shows none.
 */
export function reportingRetries(runner: Runner, emit: (event: AppEvent) => void, maxRetries: number): Runner {
  return {
    ...runner,
    runTask: (spec, options) => {
      const stream = runner.streamTask(spec, options);
      void (async () => {
        for await (const event of stream) {
          const retry = retryOf(event);
          if (!retry) continue;
          emit({
            type: "retry",
            model: retry.model,
            attempt: retry.attempt,
            of: maxRetries,
            delayMs: retry.delayMs,
            ...(retry.errorKind ? { errorKind: retry.errorKind } : {}),
          });
        }
      })().catch(() => undefined);
      return stream.result();
    },
  };
}
