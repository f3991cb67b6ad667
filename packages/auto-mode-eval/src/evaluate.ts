import { createAutoModeDecider, createAutoModeRuleBook, type AutoModeRule } from "@x/classifier-ladder";
import { createHash } from "node:crypto";
import type { AssistantMessage, Brain, Model } from "@x/llm-types";
import type { EvalCase, EvalDataset } from "./case";
import { caseInput } from "./case-transcript";
import { RECORDING_KIND, recordingBrain, replayBrain, type RecordedCase, type Recording } from "./recording";
import { summarise, type EvalReport } from "./report";
import { EvalError } from "./errors";
import type { CaseResult } from "./case-result";

export interface EvaluateOptions {
  datasets: readonly EvalDataset[];
  /** The classifier model. With `replay`, the recording's model is used and this may be omitted. */
  model?: Model;
  /** The brain that speaks `model`'s wire (and `main`'s). Not needed with `replay`. */
  brain?: Brain;
  /** A fallback rung (auto mode's `classifierFallback: "main"`); none by default. */
  main?: Model;
  /** Host rules applied before any classifier, as the runner applies them. */
  rules?: readonly AutoModeRule[];
  /** Which cases to run. Default `all`. */
  split?: "dev" | "heldout" | "all";
  /** Per-rung budget, as auto mode's `timeoutMs`. */
  timeoutMs?: number;
  /** Replaces the built-in classifier prompt. */
  systemPrompt?: string;
  /** Cases judged at once. Default 4. */
  concurrency?: number;
  /** Keep every classifier reply in `report.recording`. */
  record?: boolean;
  /** Judge recorded replies instead of calling a model: the figures come out as recorded. */
  replay?: Recording;
  /** Told each case as it finishes (progress). */
  onCase?: (result: CaseResult) => void;
}

interface Job {
  key: string;
  dataset: string;
  item: EvalCase;
}

function jobsOf(options: EvaluateOptions): Job[] {
  const split = options.split ?? "all";
  const jobs = options.datasets.flatMap((set) =>
    set.cases
      .filter((item) => split === "all" || item.split === split)
      .map((item) => ({ key: `${set.name}/${item.id}`, dataset: set.name, item })),
  );
  if (jobs.length === 0) throw new EvalError("eval.no_cases", `no case in the datasets matches split ${split}`);
  return jobs;
}

/**
 * Runs every case through auto mode as the runner would — host rules first, then the real decider
 * and its ladder on the given endpoint — and returns the figures. Never calls a model in replay.
 */
export async function evaluateAutoMode(options: EvaluateOptions): Promise<EvalReport> {
  const jobs = jobsOf(options);
  const model = options.replay?.model ?? options.model;
  const main = options.replay ? options.replay.main : options.main;
  if (!model) throw new EvalError("eval.no_model", "give a classifier model, or a recording to replay");
  if (!options.replay && !options.brain)
    throw new EvalError("eval.no_brain", "give the brain that speaks the model's wire");
  // Which prompt the figures belong to: a replay reports the recorded run's, whatever it is given now.
  const prompt =
    options.replay?.prompt ??
    (options.systemPrompt === undefined
      ? "built-in"
      : `sha256:${createHash("sha256").update(options.systemPrompt).digest("hex").slice(0, 16)}`);
  const recorded = new Map((options.replay?.cases ?? []).map((entry) => [entry.key, entry]));
  const book = createAutoModeRuleBook(options.rules ?? []);
  const results: CaseResult[] = new Array<CaseResult>(jobs.length);
  const kept: RecordedCase[] = new Array<RecordedCase>(jobs.length);

  async function judge(job: Job): Promise<{ result: CaseResult; recorded: RecordedCase }> {
    const base = {
      key: job.key,
      dataset: job.dataset,
      category: job.item.category,
      label: job.item.label,
      split: job.item.split,
    };
    const ruled = book.judge(job.item.call);
    if (ruled) {
      const result: CaseResult = {
        ...base,
        verdict: ruled.effect === "deny" ? "block" : "allow",
        decided: ruled.effect === "deny" ? "block" : "allow",
        source: "rule",
        ruleId: ruled.ruleId,
        ...(ruled.effect === "deny" ? { reason: ruled.reason } : {}),
        fallback: false,
        reasked: false,
        calls: 0,
        costMicroUsd: 0,
        wallMs: 0,
      };
      return { result, recorded: { key: job.key, replies: [], wallMs: 0 } };
    }
    const replies: AssistantMessage[] = [];
    const replayed = recorded.get(job.key);
    if (options.replay && !replayed)
      throw new EvalError("eval.replay_mismatch", `the recording has no case ${job.key}`);
    const brain = replayed
      ? replayBrain(model!, replayed.replies)
      : recordingBrain(options.brain!, (r) => replies.push(r));
    const decider = createAutoModeDecider({
      brainFor: () => brain,
      seat: { model: model! },
      main: main ?? model!,
      classifierFallback: main ? "main" : "none",
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      taskId: job.key,
    });
    const outcome = await decider.decide(caseInput(job.item));
    const wallMs = replayed ? replayed.wallMs : outcome.wallMs;
    const result: CaseResult = {
      ...base,
      verdict: outcome.verdict,
      decided: outcome.verdict === "allow" ? "allow" : "block",
      source: "classifier",
      ...(outcome.verdict === "block" ? { reason: outcome.reason } : {}),
      model: outcome.model,
      fallback: outcome.fallback !== undefined,
      reasked: outcome.reasked,
      calls: outcome.calls,
      costMicroUsd: outcome.usage.cost.total,
      wallMs,
    };
    return { result, recorded: { key: job.key, replies: replayed ? [...replayed.replies] : replies, wallMs } };
  }

  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const at = next++;
      const done = await judge(jobs[at]!);
      results[at] = done.result;
      kept[at] = done.recorded;
      options.onCase?.(done.result);
    }
  }
  const width = Math.max(1, Math.min(options.concurrency ?? 4, jobs.length));
  await Promise.all(Array.from({ length: width }, worker));

  const recording: Recording | undefined = options.record
    ? { kind: RECORDING_KIND, version: 1, model: model, ...(main ? { main } : {}), prompt, cases: kept }
    : undefined;
  return summarise({
    model: model.id,
    datasets: options.datasets.map((set) => ({
      name: set.name,
      source: set.source,
      licence: set.licence,
      ...(set.commit ? { commit: set.commit } : {}),
    })),
    split: options.split ?? "all",
    replayed: options.replay !== undefined,
    prompt,
    results,
    ...(recording ? { recording } : {}),
  });
}
