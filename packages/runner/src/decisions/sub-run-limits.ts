import { issuesLine } from "@x/llm-types";
import { z } from "zod/v4";
import { RunnerConfigError } from "../vocabulary/config-error";
import type { SubRunLimits } from "../vocabulary/sub-run-types";

export const DEFAULT_SUB_RUN_LIMITS = Object.freeze({ maxDepth: 3, maxConcurrent: 4, maxChildren: 32 });

const SubRunLimitsSchema = z.strictObject({
  maxDepth: z.number().int().positive().optional(),
  maxConcurrent: z.number().int().positive().optional(),
  maxChildren: z.number().int().positive().optional(),
});

/** The runner's sub-run limits with defaults; a misspelt or non-positive limit is refused when the runner is made. */
export function subRunLimitsOf(limits: SubRunLimits | undefined): Required<SubRunLimits> {
  const checked = SubRunLimitsSchema.safeParse(limits ?? {});
  if (!checked.success) throw new RunnerConfigError("config.sub_runs_invalid", `subRuns: ${issuesLine(checked.error)}`);
  return { ...DEFAULT_SUB_RUN_LIMITS, ...stripUndefined(checked.data) };
}

function stripUndefined(value: SubRunLimits): SubRunLimits {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
