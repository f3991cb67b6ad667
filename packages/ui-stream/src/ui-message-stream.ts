import { pendingApproval } from "@x/runner";
import type { UIMessageChunk, XDataParts } from "./ui-message-chunk";
import {
  toolResultText,
  type ParkedRun,
  type PathEntry,
  type RunEvent,
  type TaskResult,
  type ToolCallOf,
} from "./run-types";

/** How a run's events become a UI message stream. */
export interface UIMessageStreamOptions {
  /** The assistant message's id (the `start` chunk); default: none, so the reader makes one. */
  messageId?: string;
  /**
   * Send the signed park as a `data-x-park` part before its approval request, so a stateless server gets it
   * back with the messages. Default true; a host that keeps parks itself (`ApprovalInput.parks`) may set false.
   */
  sendPark?: boolean;
  /** Send the `start` chunk. Default true; false when the stream continues an assistant message already open. */
  sendStart?: boolean;
}

type FinishReason = Extract<UIMessageChunk, { type: "finish" }>["finishReason"];

const FINISH_REASONS: Record<TaskResult["status"], FinishReason> = {
  completed: "stop",
  parked: "tool-calls",
  max_turns: "length",
  budget_exhausted: "length",
  failed: "error",
  blocked: "other",
  stuck: "other",
  aborted: "other",
};

/**
 * Turns a run's events (`runner.streamTask`) into the chunks of the AI SDK's UI message stream, one event at a
 * time: text and reasoning per turn, a step per turn, each tool call as a dynamic tool part with its input and
 * output, a parked call as a `tool-approval-request` (approval id = the park id, signature = the park's), and
 * auto-mode verdicts, costs, sub-run progress, notices and the end as typed `data-x-*` parts.
 */
export class UIMessageEncoder {
  private turn = -1;
  private stepOpen = false;
  private text: string | undefined;
  private reasoning: string | undefined;
  private readonly denied = new Set<string>();
  private readonly subRuns = new Map<string, string>();
  private spent = { tokens: 0, costMicroUsd: 0, turns: 0 };
  private ended = false;

  constructor(private readonly options: UIMessageStreamOptions = {}) {}

  /** The chunks that open the stream. */
  start(): UIMessageChunk[] {
    if (this.options.sendStart === false) return [];
    return [{ type: "start", ...(this.options.messageId !== undefined ? { messageId: this.options.messageId } : {}) }];
  }

  /** The chunks one event becomes (none for events a UI has no part for). */
  encode(event: RunEvent): UIMessageChunk[] {
    switch (event.type) {
      case "turn_start": {
        const out = this.closeStep();
        this.turn = event.turn;
        this.stepOpen = true;
        out.push({ type: "start-step" });
        return out;
      }
      case "text_delta":
        return this.delta("text", event.delta);
      case "thinking_delta":
        return this.delta("reasoning", event.delta);
      case "turn_end": {
        const { usage } = event.message;
        this.spent = {
          tokens: this.spent.tokens + usage.totalTokens,
          costMicroUsd: this.spent.costMicroUsd + usage.cost.total,
          turns: this.spent.turns + 1,
        };
        return [...this.closeParts(), this.data("x-cost", { ...this.spent }, "x-cost")];
      }
      case "tool_call":
        return this.toolCall(event.toolCall);
      case "verdict":
        return [
          this.data("x-verdict", { toolCallId: event.toolCall.id, toolName: event.toolCall.name, ...event.outcome }),
        ];
      case "approval":
        if (event.decision === "deny") this.denied.add(event.toolCall.id);
        return [this.data("x-approval", { toolCallId: event.toolCall.id, kind: event.kind, decision: event.decision })];
      case "tool_result": {
        const id = event.toolCall.id;
        if (this.denied.has(id)) return [{ type: "tool-output-denied", toolCallId: id }];
        const text = toolResultText(event.result);
        return event.result.isError
          ? [{ type: "tool-output-error", toolCallId: id, errorText: text, dynamic: true }]
          : [{ type: "tool-output-available", toolCallId: id, output: event.result.details ?? text, dynamic: true }];
      }
      case "notice":
        return [this.data("x-notice", pick(event.notice))];
      case "parked":
        return this.parked(event.parked);
      case "sub_run":
        return this.subRun(event.path, event.event);
      case "run_end":
        return this.end(event.result);
      default:
        return [];
    }
  }

  /** The chunks that close a stream whose events ended by throwing. */
  fail(error: unknown): UIMessageChunk[] {
    if (this.ended) return [];
    this.ended = true;
    const errorText = error instanceof Error ? error.message : String(error);
    return [...this.closeStep(), { type: "error", errorText }];
  }

  private delta(kind: "text" | "reasoning", delta: string): UIMessageChunk[] {
    const open = kind === "text" ? this.text : this.reasoning;
    if (delta === "") return [];
    const out: UIMessageChunk[] = [];
    let id = open;
    if (id === undefined) {
      id = `${kind}-${this.turn}`;
      if (kind === "text") this.text = id;
      else this.reasoning = id;
      out.push(kind === "text" ? { type: "text-start", id } : { type: "reasoning-start", id });
    }
    out.push(kind === "text" ? { type: "text-delta", id, delta } : { type: "reasoning-delta", id, delta });
    return out;
  }

  private closeParts(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    if (this.reasoning !== undefined) out.push({ type: "reasoning-end", id: this.reasoning });
    if (this.text !== undefined) out.push({ type: "text-end", id: this.text });
    this.reasoning = undefined;
    this.text = undefined;
    return out;
  }

  private closeStep(): UIMessageChunk[] {
    const out = this.closeParts();
    if (this.stepOpen) out.push({ type: "finish-step" });
    this.stepOpen = false;
    return out;
  }

  private toolCall(call: ToolCallOf): UIMessageChunk[] {
    const { id: toolCallId, name: toolName } = call;
    const start: UIMessageChunk = { type: "tool-input-start", toolCallId, toolName, dynamic: true };
    if (call.argumentsError !== undefined) {
      const errorText = `the model's arguments were ${call.argumentsError === "truncated" ? "cut short" : "not JSON"}`;
      const input = call.rawArguments ?? call.arguments;
      return [start, { type: "tool-input-error", toolCallId, toolName, input, errorText, dynamic: true }];
    }
    return [start, { type: "tool-input-available", toolCallId, toolName, input: call.arguments, dynamic: true }];
  }

  private parked(parked: ParkedRun): UIMessageChunk[] {
    const inner = pendingApproval(parked);
    const where = inner.path.length > 0 ? ` (inside ${inner.path.map((p) => p.toolName).join(" → ")})` : "";
    const why = inner.reason !== undefined ? ` — ${inner.reason}` : "";
    const reason = `${inner.toolCall.name}${where}: ${inner.kind}${why}`;
    return [
      ...(this.options.sendPark === false ? [] : [this.data("x-park", { parked }, `x-park-${parked.parkId}`)]),
      {
        type: "tool-approval-request",
        approvalId: parked.parkId,
        toolCallId: parked.pending.toolCallId,
        reason,
        signature: parked.signature,
      },
    ];
  }

  private subRun(path: PathEntry[], event: RunEvent): UIMessageChunk[] {
    const key = path.map((entry) => entry.toolCallId).join("/");
    if (event.type === "run_start") this.subRuns.set(key, event.runId);
    const runId = this.subRuns.get(key);
    const base = { path, ...(runId !== undefined ? { runId } : {}), event: event.type };
    let data: XDataParts["x-sub-run"] | undefined;
    if (event.type === "run_start" || event.type === "parked") data = base;
    else if (event.type === "tool_call") data = { ...base, toolName: event.toolCall.name };
    else if (event.type === "turn_end") data = { ...base, text: turnText(event.message.content) };
    else if (event.type === "run_end") data = { ...base, status: event.result.status, text: event.result.output };
    else if (event.type === "sub_run") return this.subRun([...path, ...event.path], event.event);
    return data === undefined ? [] : [this.data("x-sub-run", data, `x-sub-run-${key}`)];
  }

  private end(result: TaskResult): UIMessageChunk[] {
    this.ended = true;
    const { stats, terminal } = result;
    const out = this.closeStep();
    out.push(
      this.data("x-cost", { tokens: stats.tokens, costMicroUsd: stats.costMicroUsd, turns: stats.turns }, "x-cost"),
      this.data("x-result", {
        runId: result.runId,
        status: result.status,
        code: terminal.code,
        message: terminal.message,
        tokens: stats.tokens,
        costMicroUsd: stats.costMicroUsd,
      }),
    );
    if (result.status === "aborted") out.push({ type: "abort", reason: terminal.message });
    else if (result.status === "failed") out.push({ type: "error", errorText: terminal.message });
    out.push({ type: "finish", finishReason: FINISH_REASONS[result.status] });
    return out;
  }

  private data<K extends keyof XDataParts & `x-${string}`>(key: K, data: XDataParts[K], id?: string): UIMessageChunk {
    return { type: `data-${key}`, ...(id !== undefined ? { id } : {}), data } as UIMessageChunk;
  }
}

function pick(notice: Extract<RunEvent, { type: "notice" }>["notice"]): XDataParts["x-notice"] {
  return { code: notice.code, audience: notice.audience, message: notice.message };
}

function turnText(content: readonly { type: string; text?: string }[]): string {
  return content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}

/** A run's events as UI message chunks, `start` first and `finish` (or `error`) last. */
export async function* toUIMessageChunks(
  events: AsyncIterable<RunEvent>,
  options: UIMessageStreamOptions = {},
): AsyncGenerator<UIMessageChunk> {
  const encoder = new UIMessageEncoder(options);
  yield* encoder.start();
  try {
    for await (const event of events) yield* encoder.encode(event);
  } catch (error) {
    yield* encoder.fail(error);
  }
}
