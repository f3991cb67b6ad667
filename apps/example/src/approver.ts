import { createInterface } from "node:readline";
import type { Approver } from "@x/runner";
import type { AppEvent } from "./render/events";

/**
 * A person answering at the terminal: each gated call is shown and one line is read — `y` approves,
 * `n` denies, anything else (or the end of input) parks the run as if nobody were there.
 */
export function lineApprover(
  input: NodeJS.ReadableStream,
  emit: (event: AppEvent) => void,
): { approver: Approver; close: () => void } {
  const reader = createInterface({ input, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  const approver: Approver = async (request) => {
    const event: AppEvent = {
      type: "approval_request",
      tool: request.toolCall.name,
      arguments: request.toolCall.arguments,
      kind: request.kind,
    };
    if (request.reason !== undefined) event.reason = request.reason;
    emit(event);
    const next = await lines.next();
    const answer = next.done ? "" : String(next.value).trim().toLowerCase();
    if (answer === "y" || answer === "yes") return { decision: "approve" };
    if (answer === "n" || answer === "no") return { decision: "deny", reason: "denied at the terminal" };
    return "unavailable";
  };
  return { approver, close: () => reader.close() };
}
