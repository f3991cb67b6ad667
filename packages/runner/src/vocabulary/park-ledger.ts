import type { ToolResultMessage } from "@x/llm-types";

/**
 * What a ledger answers a claim. `granted`: this caller owns the park now. `recorded`: the decided
 * call already has a result (a resume that died after the call finished and before the run moved
 * on): the run goes on from it without running the call again. `refused`: `replayed` (the park was resumed to its end),
 * `in_progress` (another process holds it), `unknown_outcome` (a process died while the call was
 * executing: whether its effect happened is for a person, or the host's reconcile step, to say).
 */
export type ParkClaim =
  | { status: "granted" }
  | { status: "recorded"; result: ToolResultMessage }
  | { status: "refused"; reason: "replayed" | "in_progress" | "unknown_outcome" };

/**
 * Consumed park ids. `claim` grants each id once — across every process sharing the ledger — so a
 * parked call executes at most once however often the park is handed back. A plain `true`/`false`
 * means granted/replayed. A ledger that also implements `executing` and `executed` lets a crash be
 * told apart from a replay: the runner calls `executing` right before the approved call runs and
 * `executed` with its result right after, before the run goes on.
 */
export interface ParkLedger {
  claim(parkId: string): Promise<boolean | ParkClaim>;
  /** The decided call is about to run: from here, a crash leaves an unknown outcome. */
  executing?(parkId: string): Promise<void>;
  /** The decided call's result (a denial's too), kept so a retried resume does not run it again. */
  executed?(parkId: string, result: ToolResultMessage): Promise<void>;
  /**
   * The resumed run has moved on past the decided call — its first checkpoint after it is stored,
   * or it ended (parked again included; an abort is not an end) — so from here every claim answers
   * `replayed`, never the recorded result: a finished run resumed again, or a denied call approved
   * later, must not run the rest of the run a second time. Required with `executed`.
   */
  settled?(parkId: string): Promise<void>;
}

/** A ledger's answer in its full form. */
export function claimOf(answer: boolean | ParkClaim): ParkClaim {
  if (answer === true) return { status: "granted" };
  if (answer === false) return { status: "refused", reason: "replayed" };
  return answer;
}
