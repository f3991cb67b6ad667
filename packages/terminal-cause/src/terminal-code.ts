import { ERROR_KINDS, type AssistantMessage } from "@x/llm-types";

/**
 * The closed set of codes a final turn maps to: the normal endings — `completed`, `tool_use`,
 * `length` (cut at the cap with something produced), `stream_cut` (the stream dropped or stalled
 * and what arrived was kept) — plus every `ErrorKind`, spread from `ERROR_KINDS` so there is no
 * second list to keep in step.
 */
export const TERMINAL_CODES = ["completed", "tool_use", "length", "stream_cut", ...ERROR_KINDS] as const;
export type TerminalCode = (typeof TERMINAL_CODES)[number];

/** The parts of a turn {@link terminalCodeOf} reads. Accepts a full {@link AssistantMessage}. */
export type TerminalTurn = Pick<AssistantMessage, "stopReason" | "errorKind" | "partialFinalized">;

/**
 * The ONE mapping from a final turn to its terminal code. Order matters: an abort wins over
 * everything; a kept partial is `stream_cut` whatever its cause; then the stamped kind; then the
 * stop reason. An `error` turn with no kind (a brain breaking its contract) reads as `provider`.
 * Returning `errorKind` as a code is what keeps the two sets aligned.
 */
export function terminalCodeOf(message: TerminalTurn): TerminalCode {
  if (message.stopReason === "aborted" || message.errorKind === "aborted") return "aborted";
  if (message.partialFinalized) return "stream_cut";
  if (message.errorKind) return message.errorKind;
  switch (message.stopReason) {
    case "stop":
      return "completed";
    case "toolUse":
      return "tool_use";
    case "length":
      return "length";
    case "error":
      return "provider";
  }
}

/** True for codes that mean the turn ended the way the model meant it to. */
export function isNormalTerminalCode(code: TerminalCode): boolean {
  return code === "completed" || code === "tool_use";
}
