import { jsonBoundsProblem, TOOL_ARGUMENT_BOUNDS, type ToolCall } from "@x/llm-types";

// How a tool call's streamed argument text becomes its arguments — or is kept raw and marked.

/**
 * A tool call's streamed JSON as its arguments: `{}` for none, undefined when it is not a JSON
 * object — or one past {@link TOOL_ARGUMENT_BOUNDS}, which recursive code downstream (the loop
 * guard, a park's signature) could not take; such a call is kept raw and marked like malformed JSON.
 */
export function parseArguments(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === "") return {};
  if (raw.length > TOOL_ARGUMENT_BOUNDS.maxSize) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    if (jsonBoundsProblem(parsed, TOOL_ARGUMENT_BOUNDS) === undefined) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the caller flags it.
  }
  return undefined;
}

/** Parses a tool call's streamed JSON into `arguments`, or records why it cannot be trusted. */
export function settleToolCall(block: ToolCall, raw: string, cut: "truncated" | undefined): void {
  const parsed = cut ? undefined : parseArguments(raw);
  if (parsed) {
    block.arguments = parsed;
    return;
  }
  block.arguments = {};
  block.rawArguments = raw;
  block.argumentsError = cut ?? "malformed_json";
}

/**
 * The settled tool call for its `toolcall_end` event, sharing nothing mutable with the message:
 * the arguments are parsed again from the streamed JSON (a fresh object, far cheaper than
 * `structuredClone`); a call whose JSON was not trusted has `{}`.
 */
export function copyToolCall(block: ToolCall, raw: string): ToolCall {
  return { ...block, arguments: block.argumentsError === undefined ? (parseArguments(raw) ?? {}) : {} };
}
