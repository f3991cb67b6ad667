import { describeError, microToUsd } from "@x/llm-types";
import { z } from "zod/v4";
import { emptyRunStats, type Runner, type RunStats, type TaskResult } from "@x/runner";
import type { ResolvedTeacherConfig, VerifyInput, VerifyUsage } from "./config";
import type { VerdictRecord } from "./result";
import { askVerifier, type SideCallSpec } from "./side-calls";

const UsageSchema = z.looseObject({
  tokens: z.number().int().min(0),
  costMicroUsd: z.number().min(0),
  modelCalls: z.number().int().min(0).optional(),
});

const VerdictSchema = z.union([
  z.boolean(),
  z.strictObject({ pass: z.boolean().optional(), reason: z.string().optional(), usage: UsageSchema.optional() }),
  z.undefined(),
]);

/** What a `verify` reported spending, as run stats the student's ledger can add up. */
export function usageStats(usage: VerifyUsage): RunStats {
  // A runner result's stats pass through whole (usage by direction, retries); a bare count is priced as given.
  if ("usage" in usage && "humanReview" in usage) return usage;
  const costMicroUsd = Math.round(usage.costMicroUsd);
  return {
    ...emptyRunStats(),
    tokens: usage.tokens,
    costMicroUsd,
    costUsd: microToUsd(costMicroUsd),
    modelCalls: usage.modelCalls ?? 0,
  };
}

/** Who judges, and on what task: the same for every student run of a `runWithTeacher` call. */
export interface JudgeContext {
  runner: Runner;
  config: ResolvedTeacherConfig;
  helper: SideCallSpec;
  task: string;
}

/** How a completed output was judged: every verdict asked for, and what they decided. */
export interface Judgement {
  /** `false` fires `verify-fail`; `undefined` (nothing decided) lets the output stand. */
  pass: boolean | undefined;
  reason?: string;
  verdicts: VerdictRecord[];
  helperStats: RunStats[];
}

/** The host's check: a decided verdict, or none with the reason it could not decide; what it spent, billed. */
async function verifyInCode(
  verify: NonNullable<ResolvedTeacherConfig["verify"]>,
  input: VerifyInput,
): Promise<{ record: VerdictRecord; spent?: RunStats }> {
  const record: VerdictRecord = { run: input.run, by: "code", samples: 0, tokens: 0, costMicroUsd: 0 };
  if (input.of === "takeover") record.of = "takeover";
  let value: unknown;
  try {
    value = await verify(input);
  } catch (error) {
    // A broken check is no evidence either way: recorded, then the rubric (if on) decides.
    record.error = describeError(error);
    return { record };
  }
  const parsed = VerdictSchema.safeParse(value);
  if (!parsed.success) {
    const got = JSON.stringify(value) ?? typeof value;
    record.error = `verify returned ${got}, not a boolean, { pass?, reason?, usage? } or undefined`;
    return { record };
  }
  if (typeof parsed.data === "boolean") record.pass = parsed.data;
  else if (parsed.data !== undefined) {
    const { pass, reason, usage } = parsed.data;
    if (pass !== undefined) record.pass = pass;
    if (reason !== undefined) record.reason = reason;
    if (usage !== undefined) {
      // A check that called a model is billed like the rubric: in the verdict and in the student's stats.
      const spent = usageStats(usage);
      record.tokens = spent.tokens;
      record.costMicroUsd = spent.costMicroUsd;
      return { record, spent };
    }
  }
  return { record };
}

/**
 * Judges a takeover's completed answer with the host's `verify` alone: the rubric verifier runs on a
 * model cheaper than the teacher and does not second-guess it, so without a decided check the answer stands.
 */
export async function judgeTakeover(target: JudgeContext, result: TaskResult, run: number): Promise<Judgement> {
  const { config, task } = target;
  if (!config.verify || result.status !== "completed") return { pass: undefined, verdicts: [], helperStats: [] };
  const input: VerifyInput = { task, output: result.output, result, run, of: "takeover" };
  const { record, spent } = await verifyInCode(config.verify, input);
  return withReason({ pass: record.pass, verdicts: [record], helperStats: spent ? [spent] : [] }, record.reason);
}

/**
 * Judges a completed output: the host's `verify` first (zero tokens); only when it is absent or
 * undecided does the rubric verifier run on the helper model, if `verifyOutput` is on.
 */
export async function judgeOutput(target: JudgeContext, result: TaskResult, run: number): Promise<Judgement> {
  const { runner, config, helper, task } = target;
  const verdicts: VerdictRecord[] = [];
  const helperStats: RunStats[] = [];
  if (config.verify) {
    const input: VerifyInput = { task, output: result.output, result, run, of: "student" };
    const { record, spent } = await verifyInCode(config.verify, input);
    verdicts.push(record);
    if (spent) helperStats.push(spent);
    if (record.pass !== undefined) return withReason({ pass: record.pass, verdicts, helperStats }, record.reason);
  }
  if (!config.verifyOutput) return { pass: undefined, verdicts, helperStats };
  const vote = await askVerifier(runner, helper, config, task, result.output);
  const rubric: VerdictRecord = {
    run,
    by: "rubric",
    samples: vote.stats.length,
    tokens: vote.stats.reduce((sum, s) => sum + s.tokens, 0),
    costMicroUsd: vote.stats.reduce((sum, s) => sum + s.costMicroUsd, 0),
  };
  if (vote.pass !== undefined) rubric.pass = vote.pass;
  const reason =
    vote.reason ??
    (vote.pass === false
      ? `the verifier rejected the answer (${vote.fails} of ${vote.passes + vote.fails})`
      : undefined);
  if (reason !== undefined) rubric.reason = reason;
  verdicts.push(rubric);
  return withReason({ pass: vote.pass, verdicts, helperStats: [...helperStats, ...vote.stats] }, reason);
}

function withReason(judgement: Judgement, reason: string | undefined): Judgement {
  if (reason !== undefined) judgement.reason = reason;
  return judgement;
}
