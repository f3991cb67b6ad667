import type { ParkedRun, RunStatus, VerdictInfo } from "./run-types";

/**
 * The data parts this package adds to the AI SDK's UI message stream, keyed as the SDK's `UIDataTypes`
 * (a part's type is `data-<key>`): type a `UIMessage<unknown, XDataParts>` with it and `message.parts`
 * narrows them.
 */
export interface XDataParts {
  [key: string]: unknown;
  /** Auto mode ruled on a call: its verdict, reason and the classifier that ruled. */
  "x-verdict": { toolCallId: string; toolName: string } & VerdictInfo;
  /** A person (a live approver) decided a call while the run was streaming. */
  "x-approval": { toolCallId: string; kind: string; decision: "approve" | "deny" | "unavailable" };
  /** What the run spent so far: tokens and integer micro-dollars, sub-runs included once they end. */
  "x-cost": { tokens: number; costMicroUsd: number; turns: number };
  /** A sub-run's progress: the delegating calls down to it, and what it just did. */
  "x-sub-run": {
    path: { runId: string; toolName: string; toolCallId: string }[];
    runId?: string;
    event: string;
    status?: RunStatus;
    text?: string;
    toolName?: string;
  };
  /** An engine notice meant for the user or the operator. */
  "x-notice": { code: string; audience: "user" | "operator"; message: string };
  /**
   * The signed park a `tool-approval-request` waits on. It travels back with the messages so a stateless
   * server can resume it; the runner checks its signature, so an edited copy is refused.
   */
  "x-park": { parked: ParkedRun };
  /** How the run ended: status, terminal code and message, and totals. */
  "x-result": {
    runId: string;
    status: RunStatus;
    code: string;
    message: string;
    tokens: number;
    costMicroUsd: number;
  };
}

type DataChunk = {
  [K in keyof XDataParts & `x-${string}`]: { type: `data-${K}`; id?: string; data: XDataParts[K]; transient?: boolean };
}[keyof XDataParts & `x-${string}`];

/**
 * A chunk of the AI SDK's UI message stream (the SSE protocol `useChat` and `readUIMessageStream` read), the
 * subset a run produces. Structurally a `UIMessageChunk` of the `ai` package, so this package needs no `ai`.
 */
export type UIMessageChunk =
  | { type: "start"; messageId?: string }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; dynamic: true }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; dynamic: true }
  | {
      type: "tool-input-error";
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
      dynamic: true;
    }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string; reason?: string; signature?: string }
  | { type: "tool-output-available"; toolCallId: string; output: unknown; dynamic: true }
  | { type: "tool-output-error"; toolCallId: string; errorText: string; dynamic: true }
  | { type: "tool-output-denied"; toolCallId: string }
  | DataChunk
  | { type: "error"; errorText: string }
  | { type: "abort"; reason?: string }
  | {
      type: "finish";
      finishReason: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";
    };
