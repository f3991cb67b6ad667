import type { Runner, RunStats, TaskSpec } from "@x/runner";
import { parseTeacherAdvice, type TeacherAdvice } from "./advice";
import type { ResolvedTeacherConfig } from "./config";
import { MONITOR_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "./prompts";
import { majorityVote, parseVerdict, type Verdict, type VoteResult } from "./verdict";

/**
 * Which model a side call runs on (a model or chain, or a runner role), and the session its calls
 * share: the runner keys provider prompt caches by session, so a side call made twice in a run (verifier
 * samples, repeated advice asks) sends its stable prefix under one cache key.
 */
export type SideCallSpec = Pick<TaskSpec, "model" | "role" | "sessionId">;

/** The cheap helper: `helperModel`, else whatever the student runs on. */
export function helperCall(config: ResolvedTeacherConfig, student: TaskSpec, sessionId: string): SideCallSpec {
  if (config.helperModel !== undefined) return { model: config.helperModel, sessionId };
  return { model: student.model, role: student.role, sessionId };
}

/** The teacher: `model`, else the runner's `advisor` role (the runner's one role resolver decides). */
export function teacherCall(config: ResolvedTeacherConfig, sessionId: string): SideCallSpec {
  return config.model !== undefined ? { model: config.model, sessionId } : { role: "advisor", sessionId };
}

interface SideCall {
  /** The reply; empty when the call did not complete. */
  text: string;
  completed: boolean;
  stats: RunStats;
}

/**
 * One tool-less, single-turn call in a session of its own: nothing of the student's session is sent
 * except what `objective` quotes, and nothing of this call enters the student's session.
 */
async function sideCall(
  runner: Runner,
  target: SideCallSpec,
  systemPrompt: string,
  objective: string,
  budget?: TaskSpec["budget"],
): Promise<SideCall> {
  // The objective is teacher mode's own brief (it quotes the student's answer), not the user's words.
  const result = await runner.runTask({
    ...target,
    systemPrompt,
    objective,
    objectiveProvenance: "engine",
    maxTurns: 1,
    ...(budget ? { budget } : {}),
  });
  const completed = result.status === "completed";
  return { text: completed ? result.output : "", completed, stats: result.stats };
}

export async function askMonitor(
  runner: Runner,
  target: SideCallSpec,
  config: ResolvedTeacherConfig,
  task: string,
  recent: readonly string[],
): Promise<Verdict & { stats: RunStats }> {
  const objective =
    `Task:\n${task}\n\n` + `Recent tool calls, newest last:\n${recent.map((line) => `- ${line}`).join("\n")}`;
  const call = await sideCall(runner, target, config.prompts?.monitor ?? MONITOR_PROMPT, objective);
  return { ...parseVerdict(call.text, "stuck"), stats: call.stats };
}

export async function askVerifier(
  runner: Runner,
  target: SideCallSpec,
  config: ResolvedTeacherConfig,
  task: string,
  output: string,
): Promise<VoteResult & { stats: RunStats[] }> {
  const objective = `Task:\n${task}\n\nAnswer to check:\n${output}`;
  const samples: Verdict[] = [];
  const stats: RunStats[] = [];
  // Sequential: samples are cheap, and a fixed order keeps scripted and replayed runs reproducible.
  for (let i = 0; i < config.verifierSamples; i++) {
    const call = await sideCall(runner, target, config.prompts?.verifier ?? VERIFIER_PROMPT, objective);
    samples.push(parseVerdict(call.text, "pass"));
    stats.push(call.stats);
  }
  return { ...majorityVote(samples), stats };
}

export async function askTeacher(
  runner: Runner,
  target: SideCallSpec,
  config: ResolvedTeacherConfig,
  brief: string,
  budget?: TaskSpec["budget"],
): Promise<{ advice: TeacherAdvice; answered: boolean; stats: RunStats }> {
  const call = await sideCall(runner, target, config.prompts?.teacher ?? TEACHER_PROMPT, brief, budget);
  return { advice: parseTeacherAdvice(call.text), answered: call.completed, stats: call.stats };
}

/** What went wrong, as the teacher is shown it: why it is consulted, what the student did, earlier advice. */
export interface FailureReport {
  trigger: string;
  reason: string;
  recent: readonly string[];
  output: string;
  earlier: readonly TeacherAdvice[];
}

export function describeFailure(input: FailureReport): string {
  const parts = [`Why you are consulted: ${input.trigger} — ${input.reason}`];
  if (input.recent.length > 0)
    parts.push(`The student's recent tool calls, newest last:\n${input.recent.map((l) => `- ${l}`).join("\n")}`);
  if (input.output.trim() !== "") parts.push(`The student's latest answer:\n${clip(input.output, 4000)}`);
  input.earlier.forEach((advice, i) => {
    const said = [advice.correction, advice.nextStep].filter((s) => s !== undefined).join(" / ");
    parts.push(`Advice ${i + 1} you already gave (it did not resolve the task): ${said || "(none usable)"}`);
  });
  return parts.join("\n\n");
}

/** Only why the student was flagged: the `short` takeover brief. */
export function describeTrigger(input: Pick<FailureReport, "trigger" | "reason">): string {
  return `Why the student was stopped: ${input.trigger} — ${input.reason}`;
}

/** The teacher's advice request: the task (a prefix that holds across asks), then the failure. */
export function teacherBrief(input: FailureReport & { task: string }): string {
  return `Task:\n${input.task}\n\n${describeFailure(input)}`;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
