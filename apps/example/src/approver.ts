import { createInterface } from "node:readline";
import type { ApprovalRequest, Approver } from "@x/runner";
import type { PendingCallView } from "./pending-call";
import type { AppEvent } from "./render/events";

/** What a person may type at the approval prompt, and what each means. */
const ANSWERS: Record<string, Answer> = {
  y: "approve",
  yes: "approve",
  n: "deny",
  no: "deny",
  p: "park",
  park: "park",
  later: "park",
  v: "view",
  view: "view",
};
type Answer = "approve" | "deny" | "park" | "view";

/** A person answering at the terminal, with a way to stop waiting for them (Ctrl-C parks the pending call). */
export interface LineApprover {
  approver: Approver;
  /** Ends a prompt that is waiting (and any later one) as "unavailable": the runner parks the call. */
  park(): void;
  /** True while a prompt waits for its answer. */
  readonly waiting: boolean;
  close(): void;
}

/**
 * Each gated call is shown and a line is read: `y` approves, `n` denies, `p` parks it for later, `v`
 * shows all of it and asks again. Anything else is asked again (a typo must not decide a write); the
 * end of input parks. `describe` makes the one view of the call that every answer refers to.
 */
export function lineApprover(
  input: NodeJS.ReadableStream,
  emit: (event: AppEvent) => void,
  describe: (request: ApprovalRequest) => Promise<PendingCallView>,
): LineApprover {
  const reader = createInterface({ input, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  let parkAll: (() => void) | undefined;
  let parked = false;
  const stopped = new Promise<"stopped">((resolve) => (parkAll = () => resolve("stopped")));
  let waiting = false;

  const answer = async (view: PendingCallView): Promise<Exclude<Answer, "view">> => {
    for (;;) {
      const next = await Promise.race([lines.next(), stopped]);
      if (next === "stopped" || next.done) return "park";
      const typed = String(next.value).trim();
      const meaning = ANSWERS[typed.toLowerCase()];
      if (meaning === "view") emit({ type: "approval_view", ...view });
      else if (meaning) return meaning;
      else emit({ type: "approval_reask", answer: typed });
    }
  };

  const approver: Approver = async (request) => {
    if (parked) return "unavailable";
    const view = await describe(request);
    emit({ type: "approval_request", ...view });
    waiting = true;
    try {
      const meaning = await answer(view);
      if (meaning === "approve") return { decision: "approve" };
      if (meaning === "deny") return { decision: "deny", reason: "denied at the terminal" };
      return "unavailable";
    } finally {
      waiting = false;
    }
  };
  return {
    approver,
    park: () => {
      parked = true;
      parkAll?.();
    },
    get waiting() {
      return waiting;
    },
    close: () => reader.close(),
  };
}
