import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import {
  assistantText,
  assistantToolCalls,
  EventStream,
  type AssistantMessage,
  type Brain,
  type BrainEvent,
  type BrainStream,
  type Context,
  type EngineNotice,
  type Model,
  type TraceFrame,
  type Tracer,
} from "@x/llm-types";
import { REVIEWER_SYSTEM_PROMPT } from "@x/council";
import { SPAN_NAMES, type ToolResultInfo } from "@x/runner";
import { MONITOR_PROMPT, TAKEOVER_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "@x/teacher";
import type { AppEvent, Speaker } from "./render/events";

/**
 * Turns what the core does into {@link AppEvent}s as it happens, from the hooks every run has — the
 * brains (each model call and what it answered), the tracer (auto-mode verdicts), the notice sink
 * and the tool-result observer — so a plain `runTask`, a teacher-mode run and a resumed run are all
 * reported the same way.
 */
export class RunObserver {
  /** The speaker of a call that is none of the named side jobs: `student` in teacher mode, else `agent`. */
  private readonly defaultSpeaker: Speaker;
  /** Whose turn the agent loop is on: tool results belong to the last agent speaker that called. */
  private agentSpeaker: Speaker;

  /** Report the text of the speaker doing the task delta by delta (`text_delta`), as it arrives. */
  private readonly streamText: boolean;

  /** Runs that are sub-runs of another (their run span names a parent), by run id. */
  private readonly childRuns = new Set<string>();
  /** The run whose model call the runner opened last: the brain is called right after its span starts. */
  private callingRun: string | undefined;

  /** The longest wait the runner's retry takes (its `maxDelayMs`): a server that asks for more is not retried. */
  private readonly maxRetryDelayMs: number | undefined;

  constructor(
    private readonly emit: (event: AppEvent) => void,
    options: { teacherMode: boolean; streamText?: boolean; maxRetryDelayMs?: number },
  ) {
    this.defaultSpeaker = options.teacherMode ? "student" : "agent";
    this.agentSpeaker = this.defaultSpeaker;
    this.streamText = options.streamText ?? false;
    this.maxRetryDelayMs = options.maxRetryDelayMs;
  }

  /**
   * Which job a model call does, read from the instructions it is sent (the packages export them);
   * a call of a sub-run's own loop is the `child`'s.
   */
  speakerOf(context: Context): Speaker {
    const system = context.systemPrompt ?? "";
    if (system === CLASSIFIER_SYSTEM_PROMPT) return "classifier";
    // A council reviewer's pass is a sub-run too; the runner appends the answer's schema to its instructions.
    if (system.startsWith(REVIEWER_SYSTEM_PROMPT)) return "reviewer";
    if (this.callingRun !== undefined && this.childRuns.has(this.callingRun)) return "child";
    if (system === TEACHER_PROMPT) return "teacher";
    if (system === MONITOR_PROMPT || system === VERIFIER_PROMPT) return "helper";
    // A takeover: the teacher does the task itself, @x/teacher's TAKEOVER_PROMPT after the host's system prompt.
    if (system.includes(TAKEOVER_PROMPT)) return "teacher";
    return this.defaultSpeaker;
  }

  wrapBrain(brain: Brain): Brain {
    return {
      api: brain.api,
      stream: (model: Model, context: Context, request) => {
        const speaker = this.speakerOf(context);
        // The teacher's advice call has no tools; its takeover run does, and then it is the agent.
        const acts = (context.tools?.length ?? 0) > 0;
        // A child's calls do not move the top-level speaker: its results are told apart by their run.
        const working = speaker === "student" || speaker === "agent" || (speaker === "teacher" && acts);
        // A classifier's calls open no model-call span of their own: the next call is read afresh.
        this.callingRun = undefined;
        if (working) this.agentSpeaker = speaker;
        const streams = working && this.streamText;
        this.emit({ type: "model_call", phase: "start", speaker, model: model.id });
        const inner = streams
          ? this.teeText(speaker, brain.stream(model, context, request))
          : brain.stream(model, context, request);
        let reported = false;
        const report = (message: AssistantMessage) => {
          if (reported) return;
          reported = true;
          this.report(speaker, model, message);
        };
        void inner.result().then(report);
        const wrapped: BrainStream = {
          result: () => inner.result(),
          [Symbol.asyncIterator]: () => {
            const iterator = inner[Symbol.asyncIterator]();
            return {
              next: async () => {
                const step = await iterator.next();
                const event = step.value as BrainEvent | undefined;
                if (!step.done && event && (event.type === "done" || event.type === "error")) report(event.message);
                return step;
              },
              ...(iterator.return ? { return: (value?: unknown) => iterator.return!(value) } : {}),
            };
          },
        };
        return wrapped;
      },
    };
  }

  /**
   * Reads the stream as it arrives and reports its text deltas, then hands the same events on: the
   * runner may only await `result()`, and a brain's stream has one consumer.
   */
  private teeText(speaker: Speaker, inner: BrainStream): BrainStream {
    const outer = new EventStream();
    void (async () => {
      for await (const event of inner) {
        if (event.type === "text_delta") this.emit({ type: "text_delta", speaker, delta: event.delta });
        outer.push(event);
      }
    })();
    return outer;
  }

  private report(speaker: Speaker, model: Model, message: AssistantMessage): void {
    const end: AppEvent = {
      type: "model_call",
      phase: "end",
      speaker,
      model: model.id,
      tokens: message.usage.totalTokens,
      costMicroUsd: message.usage.cost.total,
      stopReason: message.stopReason,
    };
    if (message.errorKind) end.errorKind = message.errorKind;
    this.emit(end);
    // A classifier's reply is reported by its verdict frame.
    if (speaker === "classifier") return;
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      this.emit({
        type: "notice",
        code: `model.${message.errorKind ?? message.stopReason}`,
        audience: "user",
        message: `${message.errorMessage ?? `${model.id} failed`}${this.givingUp(message)}`,
      });
      return;
    }
    // A cut stream (dropped or stalled, `stop` synthesised) is never a finished turn: the runner retries it
    // and runs none of its calls, so they are not shown as calls made.
    if (message.partialFinalized) return;
    const text = assistantText(message);
    if (text.trim() !== "") this.emit({ type: "turn", speaker, model: model.id, text });
    for (const call of assistantToolCalls(message))
      this.emit({ type: "tool_call", speaker, id: call.id, name: call.name, arguments: call.arguments });
  }

  /** Why a call the server asked to retry later is not retried: it asked to wait longer than the runner waits. */
  private givingUp(message: AssistantMessage): string {
    const wait = message.retryAfterMs;
    const max = this.maxRetryDelayMs;
    if (wait === undefined || max === undefined || wait <= max) return "";
    return (
      ` — the server asks to wait ${Math.ceil(wait / 1000)} s before another try, ` +
      `longer than the ${max / 1000} s this CLI waits, so it does not retry`
    );
  }

  readonly tracer: Tracer = {
    frame: (frame: TraceFrame) => {
      if (frame.phase === "start" && frame.name === SPAN_NAMES.run && typeof frame.data.parentRunId === "string")
        this.childRuns.add(String(frame.runId));
      if (frame.phase === "start" && frame.name === SPAN_NAMES.modelCall) this.callingRun = frame.runId;
      if (frame.name !== SPAN_NAMES.classification || frame.phase !== "end") return;
      const data = frame.data;
      const verdict = data.verdict as "allow" | "block" | "unavailable" | "parse_error";
      const event: AppEvent = { type: "verdict", tool: String(data.toolName), verdict };
      if (typeof data.toolCallId === "string") event.id = data.toolCallId;
      if (typeof data.model === "string") event.model = data.model;
      if (typeof data.reason === "string") event.reason = data.reason;
      if (data.station === "leg" || data.station === "ancestor") event.station = data.station;
      if (data.source === "rule" || data.source === "classifier" || data.source === "reused")
        event.source = data.source;
      if (typeof data.ruleId === "string") event.ruleId = data.ruleId;
      if (typeof data.attempt === "number") event.attempt = data.attempt;
      this.emit(event);
    },
  };

  readonly onNotice = (notice: EngineNotice): void => {
    this.emit({ type: "notice", code: notice.code, audience: notice.audience, message: notice.message });
  };

  readonly onToolResult = (info: ToolResultInfo): void => {
    const text = info.result.content
      .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
      .join("\n");
    this.emit({
      type: "tool_result",
      speaker: this.childRuns.has(info.runId) ? "child" : this.agentSpeaker,
      id: info.toolCall.id,
      name: info.result.toolName,
      isError: info.result.isError,
      text,
    });
  };
}
