import { z } from "zod/v4";
import { ModelSchema } from "@x/llm-types";
import { ScopeSchema, type StrategyStore } from "@x/strategy-store-core";

const count = (min: number) => z.number().int().min(min);
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === "function", {
  message: "expected a function",
});
const modelRef = z.union([z.string().min(1), ModelSchema]);
const store = z.custom<StrategyStore>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as StrategyStore).search === "function" &&
    typeof (value as StrategyStore).put === "function",
  { message: "expected a StrategyStore (search and put)" },
);

/** The brief a takeover is shown about the student's failure. */
export const TAKEOVER_BRIEFS = ["full", "short", "none"] as const;

/**
 * Every option, checked by shape. Strict: a misspelt option would otherwise be read as absent and
 * its default would run without the host knowing.
 */
export const TeacherConfigSchema = z.strictObject({
  model: modelRef.optional(),
  helperModel: modelRef.optional(),
  maxEscalations: count(0).optional(),
  teacherSpendRatioCap: z.number().min(0).optional(),
  teacherCostRatioCap: z.number().min(0).optional(),
  teacherMaxMicroUsd: count(0).optional(),
  stuckThreshold: count(1).optional(),
  stuckHardOverride: count(1).optional(),
  useStuckMonitor: z.boolean().optional(),
  verifyOutput: z.boolean().optional(),
  verify: fn.optional(),
  takeoverAfter: count(0).optional(),
  oneShot: z.boolean().optional(),
  takeoverBrief: z.enum(TAKEOVER_BRIEFS).optional(),
  takeoverAdvice: z.boolean().optional(),
  prompts: z
    .strictObject({
      teacher: z.string().min(1).optional(),
      verifier: z.string().min(1).optional(),
      monitor: z.string().min(1).optional(),
    })
    .optional(),
  onEscalation: fn.optional(),
  escalationPolicy: fn.optional(),
  verifierSamples: count(1).max(15).optional(),
  strategyStore: store.optional(),
  scope: ScopeSchema.optional(),
  retrieveK: count(1).max(50).optional(),
  minConfidenceToStore: z.number().min(0).max(3).optional(),
  injectStrategies: z.boolean().optional(),
});

type Parsed = z.output<typeof TeacherConfigSchema>;
type Issue = { path: string; message: string };

/** Options that only shape how the teacher is consulted: with `maxEscalations: 0` it never is. */
const TEACHER_ONLY = [
  "model",
  "teacherSpendRatioCap",
  "teacherCostRatioCap",
  "teacherMaxMicroUsd",
  "takeoverAfter",
  "takeoverBrief",
  "takeoverAdvice",
  "onEscalation",
  "escalationPolicy",
  "minConfidenceToStore",
] as const;

/** With no escalation allowed, an option only the teacher reads would run without effect. */
function teacherNeverAsked(c: Parsed): Issue[] {
  if (c.maxEscalations !== 0) return [];
  const why = "is used only when the teacher may be consulted, and maxEscalations is 0";
  const issues: Issue[] = TEACHER_ONLY.filter((key) => c[key] !== undefined).map((key) => ({
    path: key,
    message: `${key} ${why}`,
  }));
  if (c.prompts?.teacher !== undefined) issues.push({ path: "prompts.teacher", message: `the teacher prompt ${why}` });
  return issues;
}

/** Options that would be silently ignored in this combination: refused, so the host learns it at once. */
export function ignoredCombinations(c: Parsed): Issue[] {
  const issues: Issue[] = [];
  const memory = c.strategyStore !== undefined && c.scope !== undefined;
  if (c.strategyStore !== undefined && c.scope === undefined)
    issues.push({ path: "scope", message: "strategyStore is used only with a scope; set scope or drop the store" });
  if (c.scope !== undefined && c.strategyStore === undefined)
    issues.push({ path: "strategyStore", message: "scope is used only with a strategyStore" });
  for (const key of ["retrieveK", "minConfidenceToStore", "injectStrategies"] as const)
    if (!memory && c[key] !== undefined)
      issues.push({ path: key, message: `${key} is used only with strategyStore and scope` });
  const rubric = c.verifyOutput !== false;
  if (!rubric && c.verifierSamples !== undefined)
    issues.push({ path: "verifierSamples", message: "verifierSamples is used only when verifyOutput is on" });
  if (!rubric && c.prompts?.verifier !== undefined)
    issues.push({ path: "prompts.verifier", message: "the verifier prompt is used only when verifyOutput is on" });
  const monitor = c.useStuckMonitor !== false;
  if (!monitor && c.prompts?.monitor !== undefined)
    issues.push({ path: "prompts.monitor", message: "the monitor prompt is used only when useStuckMonitor is on" });
  if (!rubric && !monitor && c.helperModel !== undefined)
    issues.push({
      path: "helperModel",
      message: "helperModel is used only by the rubric verifier or the stuck monitor",
    });
  return [...issues, ...teacherNeverAsked(c)];
}
