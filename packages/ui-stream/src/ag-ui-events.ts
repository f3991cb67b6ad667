import { EventType, type BaseEvent, type Interrupt } from "@ag-ui/core";
import { pendingApproval } from "@x/runner";
import { toolResultText, type ParkedRun, type RunEvent, type TaskResult } from "./run-types";

/** How a run's events become AG-UI events. */
export interface AgUiOptions {
  /** The AG-UI thread (a conversation); its run id is the runner's. */
  threadId: string;
  /**
   * Put the signed park in the interrupt's metadata (`x.park`), so a stateless server gets it back in the
   * client's resume payload. Default true; a host that keeps parks itself may set false.
   */
  sendPark?: boolean;
}

/** The AG-UI interrupt reason of a parked call waiting for a person. */
export const APPROVAL_INTERRUPT_REASON = "tool_approval";

/**
 * Turns a run's events into AG-UI events (`@ag-ui/core`): RUN_STARTED, a step per turn, text and reasoning
 * messages, tool calls with their arguments and results, verdicts, approvals, notices, costs and sub-run
 * progress as CUSTOM events (`x.verdict`, `x.approval`, `x.notice`, `x.cost`, `x.sub_run`), and RUN_FINISHED —
 * with an `interrupt` outcome when the run parked (the interrupt id is the park id), or RUN_ERROR.
 */
export class AgUiEncoder {
  private runId = "";
  private turn = -1;
  private stepOpen = false;
  private text: string | undefined;
  private reasoning: string | undefined;
  private parked: ParkedRun | undefined;
  private ended = false;

  constructor(private readonly options: AgUiOptions) {}

  encode(event: RunEvent): BaseEvent[] {
    switch (event.type) {
      case "run_start":
        this.runId = event.runId;
        return [{ type: EventType.RUN_STARTED, threadId: this.options.threadId, runId: event.runId }];
      case "turn_start": {
        const out = this.closeStep();
        this.turn = event.turn;
        this.stepOpen = true;
        out.push(ev(EventType.STEP_STARTED, { stepName: `turn ${event.turn}` }));
        return out;
      }
      case "text_delta":
        return this.textDelta(event.delta);
      case "thinking_delta":
        return this.reasoningDelta(event.delta);
      case "turn_end": {
        const { usage } = event.message;
        const cost = { tokens: usage.totalTokens, costMicroUsd: usage.cost.total, turn: event.turn };
        return [...this.closeMessages(), custom("x.cost", cost)];
      }
      case "tool_call": {
        const { id, name, arguments: args } = event.toolCall;
        return [
          ev(EventType.TOOL_CALL_START, {
            toolCallId: id,
            toolCallName: name,
            ...(this.turn >= 0 ? { parentMessageId: this.messageId("text") } : {}),
          }),
          ev(EventType.TOOL_CALL_ARGS, { toolCallId: id, delta: JSON.stringify(args) }),
          ev(EventType.TOOL_CALL_END, { toolCallId: id }),
        ];
      }
      case "tool_result":
        return [
          ev(EventType.TOOL_CALL_RESULT, {
            messageId: `${event.toolCall.id}-result`,
            toolCallId: event.toolCall.id,
            content: toolResultText(event.result),
            role: "tool",
          }),
        ];
      case "verdict":
        return [
          custom("x.verdict", { toolCallId: event.toolCall.id, toolName: event.toolCall.name, ...event.outcome }),
        ];
      case "approval":
        return [custom("x.approval", { toolCallId: event.toolCall.id, kind: event.kind, decision: event.decision })];
      case "notice": {
        const { code, audience, message } = event.notice;
        return [custom("x.notice", { code, audience, message })];
      }
      case "parked":
        this.parked = event.parked;
        return [];
      case "sub_run": {
        const inner = event.event;
        if (!["run_start", "tool_call", "parked", "run_end"].includes(inner.type)) return [];
        return [
          custom("x.sub_run", {
            path: event.path,
            event: inner.type,
            ...(inner.type === "run_start" ? { runId: inner.runId } : {}),
            ...(inner.type === "tool_call" ? { toolName: inner.toolCall.name } : {}),
            ...(inner.type === "run_end" ? { status: inner.result.status, text: inner.result.output } : {}),
          }),
        ];
      }
      case "run_end":
        return this.end(event.result);
      default:
        return [];
    }
  }

  /** The events that close a stream whose run events ended by throwing. */
  fail(error: unknown): BaseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    const message = error instanceof Error ? error.message : String(error);
    return [...this.closeStep(), ev(EventType.RUN_ERROR, { message, code: "internal_error" })];
  }

  private messageId(kind: "text" | "reasoning"): string {
    return `${this.runId}-${kind}-${this.turn}`;
  }

  private textDelta(delta: string): BaseEvent[] {
    if (delta === "") return [];
    const out: BaseEvent[] = [];
    if (this.text === undefined) {
      this.text = this.messageId("text");
      out.push(ev(EventType.TEXT_MESSAGE_START, { messageId: this.text, role: "assistant" }));
    }
    out.push(ev(EventType.TEXT_MESSAGE_CONTENT, { messageId: this.text, delta }));
    return out;
  }

  private reasoningDelta(delta: string): BaseEvent[] {
    if (delta === "") return [];
    const out: BaseEvent[] = [];
    if (this.reasoning === undefined) {
      const messageId = this.messageId("reasoning");
      this.reasoning = messageId;
      out.push(
        ev(EventType.REASONING_START, { messageId }),
        ev(EventType.REASONING_MESSAGE_START, { messageId, role: "reasoning" }),
      );
    }
    out.push(ev(EventType.REASONING_MESSAGE_CONTENT, { messageId: this.reasoning, delta }));
    return out;
  }

  private closeMessages(): BaseEvent[] {
    const out: BaseEvent[] = [];
    const { reasoning, text } = this;
    if (reasoning !== undefined)
      out.push(
        ev(EventType.REASONING_MESSAGE_END, { messageId: reasoning }),
        ev(EventType.REASONING_END, { messageId: reasoning }),
      );
    if (text !== undefined) out.push(ev(EventType.TEXT_MESSAGE_END, { messageId: text }));
    this.reasoning = undefined;
    this.text = undefined;
    return out;
  }

  private closeStep(): BaseEvent[] {
    const out = this.closeMessages();
    if (this.stepOpen) out.push(ev(EventType.STEP_FINISHED, { stepName: `turn ${this.turn}` }));
    this.stepOpen = false;
    return out;
  }

  private end(result: TaskResult): BaseEvent[] {
    this.ended = true;
    const out = this.closeStep();
    const { stats, terminal } = result;
    out.push(custom("x.cost", { tokens: stats.tokens, costMicroUsd: stats.costMicroUsd, turns: stats.turns }));
    if (result.status === "failed") {
      out.push(ev(EventType.RUN_ERROR, { message: terminal.message, code: terminal.code }));
      return out;
    }
    const parked = result.status === "parked" ? (result.parked ?? this.parked) : undefined;
    const summary = { status: result.status, code: terminal.code, message: terminal.message, output: result.output };
    out.push({
      type: EventType.RUN_FINISHED,
      threadId: this.options.threadId,
      runId: result.runId,
      result: summary,
      outcome:
        parked !== undefined
          ? { type: "interrupt", interrupts: [this.interrupt(parked)] }
          : result.status === "aborted"
            ? { type: "cancelled" }
            : { type: "success" },
    });
    return out;
  }

  private interrupt(parked: ParkedRun): Interrupt {
    const inner = pendingApproval(parked);
    return {
      id: parked.parkId,
      reason: APPROVAL_INTERRUPT_REASON,
      message: `${inner.toolCall.name} waits for a person's decision (${inner.kind})`,
      toolCallId: parked.pending.toolCallId,
      expiresAt: new Date(parked.expiresAt).toISOString(),
      responseSchema: {
        type: "object",
        properties: { approved: { type: "boolean" }, reason: { type: "string" } },
        required: ["approved"],
      },
      metadata: {
        "x.call": { ...inner.toolCall, kind: inner.kind, path: inner.path },
        ...(this.options.sendPark === false ? {} : { "x.park": parked }),
      },
    };
  }
}

function ev(type: EventType, fields: Record<string, unknown>): BaseEvent {
  return { type, ...fields };
}

function custom(name: string, value: unknown): BaseEvent {
  return { type: EventType.CUSTOM, name, value };
}

/** A run's events as AG-UI events, RUN_STARTED first and RUN_FINISHED (or RUN_ERROR) last. */
export async function* toAgUiEvents(events: AsyncIterable<RunEvent>, options: AgUiOptions): AsyncGenerator<BaseEvent> {
  const encoder = new AgUiEncoder(options);
  try {
    for await (const event of events) yield* encoder.encode(event);
  } catch (error) {
    yield* encoder.fail(error);
  }
}
