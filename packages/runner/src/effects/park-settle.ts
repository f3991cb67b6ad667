import { describeError } from "@x/llm-types";
import type { RunContext } from "../state/run-context";
import type { TaskResult } from "../vocabulary/types";

/**
 * Tells the ledger, once, that a resumed run has moved on past its decided call (`ParkLedger.settled`):
 * after its first checkpoint the host stored, or when it ends. An abort is not an end — the park may
 * be resumed again, and the recorded result spares the call. A ledger that cannot hear it is told to
 * the operator, not thrown: the run's result stands, and a later claim gets the recorded result, as
 * it did before the ledger could settle.
 */
export function settleWhenMovedOn(ctx: RunContext, parkId: string): (result: TaskResult) => Promise<TaskResult> {
  const ledger = ctx.deps.parkLedger;
  if (!ledger.settled) return async (result) => result;
  let told = false;
  const settle = async () => {
    if (told) return;
    told = true;
    try {
      await ledger.settled!(parkId);
    } catch (error) {
      ctx.notice({
        code: "park.settle_failed",
        audience: "operator",
        message:
          `The park ledger could not record that parked run ${parkId} moved on: a later resume of the ` +
          "same park would replay its recorded result and run the rest of the run again.",
        detail: { parkId, error: describeError(error) },
      });
    }
  };
  const sink = ctx.onCheckpoint;
  if (sink) {
    ctx.onCheckpoint = async (checkpoint) => {
      await sink(checkpoint);
      await settle();
    };
  }
  return async (result) => {
    if (result.status !== "aborted") await settle();
    return result;
  };
}
