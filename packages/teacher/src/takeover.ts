import type { AssistantMessage, Message } from "@x/llm-types";
import type { Runner, TaskResult, TaskSpec } from "@x/runner";
import { splitTrailingAdvice, type TeacherAdvice } from "./advice";
import type { ResolvedTeacherConfig } from "./config";
import { TAKEOVER_PROMPT } from "./prompts";
import type { EscalationRecord } from "./result";
import { describeFailure, teacherSeat, type FailureReport } from "./seats";

/**
 * The teacher's own run of the task: the host's history and tools and the (strategy-enriched)
 * objective, with `note` after the host's system prompt. The student's model, session and run ids stay
 * behind — this is the teacher's own session.
 */
function teacherRun(
  runner: Runner,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  objective: string,
  note: string,
): Promise<TaskResult> {
  const { model: _model, role: _role, sessionId: _session, runId: _run, ...rest } = spec;
  return runner.runTask({
    ...rest,
    ...teacherSeat(config),
    systemPrompt: spec.systemPrompt ? `${spec.systemPrompt}\n\n${note}` : note,
    objective,
  });
}

/** A takeover the teacher asked for in its advice: that advice, and the earlier ones, go with it. */
export function runTakeover(
  runner: Runner,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  objective: string,
  escalations: readonly EscalationRecord[],
): Promise<TaskResult> {
  const notes = escalations.map((e) => `- (${e.trigger}) ${describeAdvice(e.teacher)}`).join("\n");
  return teacherRun(
    runner,
    spec,
    config,
    objective,
    `A previous, weaker agent attempted this task and failed. What was learned:\n${notes}\nDo the task yourself now.`,
  );
}

function describeAdvice(advice: TeacherAdvice): string {
  return (
    [advice.correction, advice.strategy, advice.nextStep].filter((s) => s !== undefined).join(" ") ||
    "(no usable advice)"
  );
}

/**
 * Whether a takeover already decided on can be one teacher call. Not when the host wants structured
 * output: the runner parses the final answer against the host's schema, and a trailing advice block
 * would fail it — there the advice is asked for separately, as before.
 */
export function canTakeOverInOneCall(spec: TaskSpec): boolean {
  return spec.output === undefined;
}

/**
 * A takeover decided before asking (`takeoverAfter` failed corrections): asking for advice first would
 * only pay for text the takeover replaces. The teacher is shown what it would have been shown for
 * advice and does the task; its final reply ends with the same advice JSON, cut off here so the host
 * gets the answer alone. `reached` is false when the teacher produced no turn at all (unreachable):
 * like an unanswered advice request, that leaves the student's result standing.
 */
export async function takeOverWithAdvice(
  runner: Runner,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  objective: string,
  failure: FailureReport,
): Promise<{ result: TaskResult; advice: TeacherAdvice; reached: boolean }> {
  const result = await teacherRun(runner, spec, config, objective, `${TAKEOVER_PROMPT}\n\n${describeFailure(failure)}`);
  if (result.status === "failed" && result.stats.turns === 0)
    return { result, advice: { takeover: false, confidence: 0, raw: "" }, reached: false };
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
