import type { AssistantMessage, Message } from "@x/llm-types";
import type { TaskResult, TaskSpec } from "@x/runner";
import { splitTrailingAdvice, type TeacherAdvice } from "./advice";
import type { ResolvedTeacherConfig } from "./config";
import { TAKEOVER_ADVICE_PROMPT, TAKEOVER_PROMPT } from "./prompts";
import type { EscalationRecord } from "./result";
import { describeFailure, describeTrigger, type FailureReport, type SideCallSpec } from "./side-calls";
import { strategiesProvenance } from "./strategy-memory";

/**
 * How a takeover's run is started: `runner.runTask`, or, in a queued teacher task, the queue's
 * checkpointed run (so a worker that dies mid-takeover is continued, not started again).
 */
export type TaskRun = (spec: TaskSpec) => Promise<TaskResult>;

/**
 * The teacher's own run of the task: the host's history, tools and (strategy-enriched) objective.
 * With a brief, the host's system prompt is followed by the fixed `TAKEOVER_PROMPT` (and the advice
 * instruction), then the brief: what varies per failure comes last, after the prefix every takeover
 * shares. The brief stays in the system prompt, never in a user message, because it quotes the
 * student's answer and tool results, which must not pass for the user's words. Without a brief the
 * teacher sees the task as a plain call on it would. The student's model, session and run ids stay behind.
 */
function teacherRun(
  run: TaskRun,
  spec: TaskSpec,
  target: SideCallSpec,
  objective: string,
  brief: string | undefined,
  adviceBlock: boolean,
): Promise<TaskResult> {
  const { model: _model, role: _role, sessionId: _session, runId: _run, ...rest } = spec;
  const parts = [spec.systemPrompt, brief === undefined ? undefined : TAKEOVER_PROMPT];
  if (adviceBlock) parts.push(TAKEOVER_ADVICE_PROMPT);
  parts.push(brief);
  const systemPrompt = parts.filter((n) => n !== undefined).join("\n\n");
  return run({
    ...rest,
    ...target,
    ...(systemPrompt !== "" ? { systemPrompt } : {}),
    objective,
    objectiveProvenance: strategiesProvenance(objective, spec.objective),
  });
}

/** The brief `takeoverBrief` asks for: everything, only why the student was stopped, or nothing. */
function briefFor(config: ResolvedTeacherConfig, failure: FailureReport, learned?: string): string | undefined {
  if (config.takeoverBrief === "none") return undefined;
  if (config.takeoverBrief === "short") return describeTrigger(failure);
  return learned === undefined ? describeFailure(failure) : `${describeFailure(failure)}\n\n${learned}`;
}

/** A takeover the teacher asked for in its advice: that advice, and the earlier ones, go with it. */
export function runTakeover(
  run: TaskRun,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  target: SideCallSpec,
  objective: string,
  failure: FailureReport,
  escalations: readonly EscalationRecord[],
): Promise<TaskResult> {
  const notes = escalations.map((e) => `- (${e.trigger}) ${describeAdvice(e.teacher)}`).join("\n");
  const brief = briefFor(config, { ...failure, earlier: [] }, `What the teacher's review found:\n${notes}`);
  return teacherRun(run, spec, target, objective, brief, false);
}

function describeAdvice(advice: TeacherAdvice): string {
  return (
    [advice.correction, advice.strategy, advice.nextStep].filter((s) => s !== undefined).join(" ") ||
    "(no usable advice)"
  );
}

/**
 * Whether a takeover already decided on can carry its advice in the same call. Not when the host
 * wants structured output: the runner parses the final answer against the host's schema, and a
 * trailing advice block would fail it — there the advice is asked for separately.
 */
export function canTakeOverInOneCall(spec: TaskSpec): boolean {
  return spec.output === undefined;
}

/**
 * A takeover decided before asking (`takeoverAfter` failed corrections): asking for advice first would
 * only pay for text the takeover replaces. With `adviceBlock` the teacher's final reply ends with the
 * advice JSON, cut off here so the host gets the answer alone; without it the advice is empty (nothing
 * would keep it). `reached` is false when the teacher produced no turn at all (unreachable): like an
 * unanswered advice request, that leaves the student's result standing.
 */
export async function takeOverAtOnce(
  run: TaskRun,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  target: SideCallSpec,
  objective: string,
  failure: FailureReport,
  adviceBlock: boolean,
): Promise<{ result: TaskResult; advice: TeacherAdvice; reached: boolean }> {
  const result = await teacherRun(run, spec, target, objective, briefFor(config, failure), adviceBlock);
  if (result.status === "failed" && result.stats.turns === 0)
    return { result, advice: { takeover: false, confidence: 0, raw: "" }, reached: false };
  if (!adviceBlock) return { result, advice: { takeover: true, confidence: 0 }, reached: true };
  const split = splitTrailingAdvice(result.output);
  if (!split.advice) return { result, advice: { takeover: true, confidence: 0, raw: result.output }, reached: true };
  return {
    result: { ...result, output: split.answer, messages: withoutAdvice(result.messages) },
    advice: { ...split.advice, takeover: true },
    reached: true,
  };
}

/** The messages with the advice block cut from the final answer's last text block, as from `output`. */
function withoutAdvice(messages: readonly Message[]): Message[] {
  const last = messages.findLastIndex((m) => m.role === "assistant");
  if (last === -1) return [...messages];
  const message = messages[last] as AssistantMessage;
  const block = message.content.findLastIndex((b) => b.type === "text");
  if (block === -1) return [...messages];
  const content = message.content.map((b, i) =>
    i === block && b.type === "text" ? { ...b, text: splitTrailingAdvice(b.text).answer } : b,
  );
  return messages.map((m, i) => (i === last ? { ...message, content } : m));
}
