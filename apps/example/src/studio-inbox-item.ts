import type { ParkedRun } from "@x/runner";
import type { InboxItem } from "@x/studio";
import type { PendingCallView } from "./pending-call";

/**
 * A parked call as the studio's inbox lists it, whichever source holds the park (the CLI's park
 * files, the queue's tasks): the park's id and times, the whole call as a person sees it, and where
 * it comes from.
 */
export function inboxItemOf(
  parked: ParkedRun,
  view: PendingCallView,
  source: { runId: string; label: string; costMicroUsd: number },
): InboxItem {
  return {
    id: parked.parkId,
    runId: source.runId,
    label: source.label,
    createdAt: new Date(parked.createdAt).toISOString(),
    expiresAt: new Date(parked.expiresAt).toISOString(),
    tool: view.tool,
    toolCallId: view.id,
    arguments: view.arguments,
    kind: view.kind,
    ...(view.reason !== undefined ? { reason: view.reason } : {}),
    path: view.path,
    ...(view.diff !== undefined ? { diff: view.diff } : {}),
    costMicroUsd: source.costMicroUsd,
  };
}
