import { describeError } from "@x/llm-types";
import { z } from "zod/v4";
import type { Runner, RunStats, TaskResult } from "@x/runner";
import type { ResolvedTeacherConfig, VerifyInput } from "./config";
import type { VerdictRecord } from "./result";
import { askVerifier, type SideCallSpec } from "./side-calls";

const VerdictSchema = z.union([
  z.boolean(),
  z.strictObject({ pass: z.boolean(), reason: z.string().optional() }),
  z.undefined(),
]);

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

/** The host's check: a decided verdict, or `undefined` with the reason it could not decide. */
async function verifyInCode(
  verify: NonNullable<ResolvedTeacherConfig["verify"]>,
  input: VerifyInput,
): Promise<VerdictRecord> {
  const record: VerdictRecord = { run: input.run, by: "code", samples: 0, tokens: 0, costMicroUsd: 0 };
  let value: unknown;
  try {
    value = await verify(input);
  } catch (error) {
    // A broken check is no evidence either way: recorded, then the rubric (if on) decides.
    record.error = describeError(error);
    return record;
  }
  const parsed = VerdictSchema.safeParse(value);
  if (!parsed.success) {
    const got = JSON.stringify(value) ?? typeof value;
    record.error = `verify returned ${got}, not a boolean, { pass, reason? } or undefined`;
    return record;
  }
  if (typeof parsed.data === "boolean") record.pass = parsed.data;
  else if (parsed.data !== undefined) {
    record.pass = parsed.data.pass;
    if (parsed.data.reason !== undefined) record.reason = parsed.data.reason;
  }
  return record;
}

/**
 * Judges a completed output: the host's `verify` first (zero tokens); only when it is absent or
 * undecided does the rubric verifier run on the helper model, if `verifyOutput` is on.
 */
export async function judgeOutput(target: JudgeContext, result: TaskResult, run: number): Promise<Judgement> {
  const { runner, config, helper, task } = target;
  const verdicts: VerdictRecord[] = [];
  if (config.verify) {
    const code = await verifyInCode(config.verify, { task, output: result.output, result, run });
    verdicts.push(code);
    if (code.pass !== undefined) return withReason({ pass: code.pass, verdicts, helperStats: [] }, code.reason);
  }
  if (!config.verifyOutput) return { pass: undefined, verdicts, helperStats: [] };
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
  return withReason({ pass: vote.pass, verdicts, helperStats: vote.stats }, reason);
}

function withReason(judgement: Judgement, reason: string | undefined): Judgement {
  if (reason !== undefined) judgement.reason = reason;
  return judgement;
}
