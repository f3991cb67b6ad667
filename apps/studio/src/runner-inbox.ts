import {
  ParkedRunError,
  pendingApproval,
  type ApprovalDecision,
  type ParkedRun,
  type ResumeOptions,
  type Runner,
} from "@x/runner";
import { resultEvents } from "@x/ui-stream";
import type { ApprovalInbox, InboxItem } from "./sources";

/** An inbox over parks this process holds, resumed by this process's runner. */
export interface RunnerInboxOptions {
  runner: Pick<Runner, "resume">;
  /** Tools and observers for resumed runs. */
  resume?: ResumeOptions;
  /** What else to show for a call (a diff for a file write): the host knows its tools' meaning. */
  describe?: (call: { name: string; arguments: Record<string, unknown> }) => Promise<{ diff?: string }>;
}

interface Held {
  parked: ParkedRun;
  label: string;
}

/**
 * Parks held in memory (`add` a parked result's `parked`), decided through `runner.resume`: its signature
 * check and park ledger make a second decision of the same park a refusal, so a call runs at most once. A resumed
 * run that parks again is held again.
 */
export function createRunnerInbox(options: RunnerInboxOptions): ApprovalInbox & {
  add(parked: ParkedRun, label: string): void;
} {
  const held = new Map<string, Held>();
  return {
    add(parked, label) {
      held.set(parked.parkId, { parked, label });
    },
    async list() {
      return Promise.all(
        [...held.values()].map(async ({ parked, label }): Promise<InboxItem> => {
          const inner = pendingApproval(parked);
          const extra = options.describe ? await options.describe(inner.toolCall) : {};
          return {
            id: parked.parkId,
            runId: parked.spec.runId,
            label,
            createdAt: new Date(parked.createdAt).toISOString(),
            expiresAt: new Date(parked.expiresAt).toISOString(),
            tool: inner.toolCall.name,
            toolCallId: inner.toolCall.id,
            arguments: inner.toolCall.arguments,
            kind: inner.kind,
            ...(inner.reason !== undefined ? { reason: inner.reason } : {}),
            path: inner.path,
            ...(extra.diff !== undefined ? { diff: extra.diff } : {}),
            costMicroUsd: parked.state.stats.usage.cost.total,
          };
        }),
      );
    },
    async decide(id: string, decision: ApprovalDecision, emit) {
      const entry = held.get(id);
      if (!entry) throw new Error(`no call waits on park ${id}`);
      // Taken out before the resume: a second decision finds nothing here, and the runner's ledger refuses it anyway.
      held.delete(id);
      const { parked, label } = entry;
      let result;
      try {
        result = await options.runner.resume(parked, decision, options.resume);
      } catch (error) {
        // Refused before anything ran (a ledger that could not be reached, an abort): the call still waits.
        // Decided elsewhere already (`replayed`): it waits no more.
        if (!(error instanceof ParkedRunError && error.code === "replayed")) held.set(id, entry);
        throw error;
      }
      const decided = { toolCallId: parked.pending.toolCallId, decision: decision.decision };
      for (const event of resultEvents(result, parked.messages.length, decided, {
        start: true,
        repeatDecidedCall: true,
      }))
        emit(event);
      if (result.parked) held.set(result.parked.parkId, { parked: result.parked, label });
      return result;
    },
  };
}
