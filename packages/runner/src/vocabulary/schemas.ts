import { CompactedHistorySchema } from "./compaction-state";
import { AutoModeRulesSchema } from "@x/classifier-ladder";
import { MessageProvenanceSchema, ModelSchema, ROLE_NAMES, type Message, type MessageProvenance } from "@x/llm-types";
import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";
import type { Tool } from "./define-tool";
import { ElicitationDecisionSchema } from "./elicitation";
import { APPROVAL_KINDS, PERMISSIONS, type TaskSpec } from "./types";
import { MAX_TIMER_MS, REASONING_LEVELS } from "@x/llm-types";

export const PermissionSchema = z.enum(PERMISSIONS);
export const ApprovalKindSchema = z.enum(APPROVAL_KINDS);
/** A person's answer to an approval: from a live approver, or handed to `resume`. */
export const ApprovalDecisionSchema = z.strictObject({
  decision: z.enum(["approve", "deny"]),
  reason: z.string().optional(),
});
/** What `resume` accepts: an approval's decision, or an elicitation's answer or refusal. */
export const ResumeDecisionSchema = z.union([ApprovalDecisionSchema, ElicitationDecisionSchema]);

const ModelRefSchema = z.union([z.string().min(1), ModelSchema]);
const positiveInt = z.number().int().positive();
const timerMs = positiveInt.max(MAX_TIMER_MS);

/**
 * The JSON-safe fields of a TaskSpec, shared by the spec a caller hands in and the spec a park
 * stores, so the two cannot drift apart.
 */
export const taskSpecFields = {
  objective: z.string(),
  objectiveProvenance: MessageProvenanceSchema.optional(),
  role: z.enum(ROLE_NAMES).optional(),
  systemPrompt: z.string().optional(),
  permissions: z.record(z.string(), PermissionSchema).readonly().optional(),
  defaultPermission: PermissionSchema.optional(),
  autoModeRules: AutoModeRulesSchema.readonly().optional(),
  maxTurns: positiveInt.optional(),
  maxTokens: positiveInt.optional(),
  reasoning: z.enum(REASONING_LEVELS).optional(),
  budget: z
    .strictObject({ tokens: z.number().nonnegative().optional(), microUsd: z.number().int().nonnegative().optional() })
    .optional(),
  maxRepeatedCalls: positiveInt.optional(),
  toolTimeoutMs: timerMs.optional(),
  modelTimeoutMs: timerMs.optional(),
  sessionId: z.string().min(1).optional(),
  runId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .optional(),
};

/** A model, or a fallback chain of them (never empty). Read-only like `TaskSpec.model`. */
export const TaskModelRefSchema = z.union([ModelRefSchema, z.array(ModelRefSchema).min(1).readonly()]);

const isToolShaped = (value: unknown): value is Tool =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Tool).name === "string" &&
  typeof (value as Tool).execute === "function" &&
  typeof (value as Tool).spec === "object";

/**
 * Tool lists that passed, each with a copy of its entries then: a host passes the same long list
 * on every task, and checking it again cost more per task than the rest of the spec together. A
 * list still holding the same tools (identity, one cheap pass) is not checked again.
 */
const checkedToolLists = new WeakMap<readonly unknown[], readonly unknown[]>();

function sameEntries(list: readonly unknown[], copy: readonly unknown[] | undefined): boolean {
  if (copy === undefined || copy.length !== list.length) return false;
  for (let i = 0; i < list.length; i++) if (list[i] !== copy[i]) return false;
  return true;
}

/** A tool list: each entry a tool by shape, no two with the same name. */
const ToolListSchema = z
  .custom<readonly Tool[]>((value) => Array.isArray(value), { message: "expected an array of tools" })
  .superRefine((tools, ctx) => {
    if (sameEntries(tools, checkedToolLists.get(tools))) return;
    const seen = new Set<string>();
    let failed = false;
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i];
      if (!isToolShaped(tool)) {
        ctx.addIssue({ code: "custom", path: [i], message: "expected a tool made by defineTool()" });
        failed = true;
      } else if (seen.has(tool.name)) {
        ctx.addIssue({ code: "custom", path: [], message: `two tools are named "${tool.name}"` });
        failed = true;
      } else seen.add(tool.name);
    }
    if (!failed) checkedToolLists.set(tools, tools.slice());
  });

/**
 * A TaskSpec from outside: checked before anything runs. Functions and zod schemas are checked by
 * shape. Strict: an unknown key is refused, because a misspelt `defaultPermission` or `permissions`
 * read as absent would let a tool meant for `ask` or `auto` run unasked.
 */
/** An objective's provenance parts must cover it exactly, or nobody can tell the user's words apart. */
function provenanceCovers(spec: { objective: string; objectiveProvenance?: MessageProvenance | undefined }): boolean {
  const parts = spec.objectiveProvenance;
  if (!Array.isArray(parts)) return true;
  return parts.reduce((sum, part) => sum + part.chars, 0) === spec.objective.length;
}

export const TaskSpecSchema = z
  .strictObject({
    ...taskSpecFields,
    model: TaskModelRefSchema.optional(),
    tools: ToolListSchema.optional(),
    toolNames: z.array(z.string().min(1)).readonly().optional(),
    compactedHistory: CompactedHistorySchema.optional(),
    // Only "an array" here, so zod neither walks nor copies it; `checkHistory` then checks the
    // entries it has not seen before.
    history: z
      .custom<readonly Message[]>((value) => Array.isArray(value), { message: "expected an array of messages" })
      .optional(),
    // By shape, not instanceof: a schema from zod/mini or from another copy of zod 4 is a schema too.
    output: z
      .custom<z4.$ZodType>((value) => typeof value === "object" && value !== null && "_zod" in value, {
        message: "expected a zod schema",
      })
      .optional(),
    onToolResult: z
      .custom<NonNullable<TaskSpec["onToolResult"]>>((value) => typeof value === "function", {
        message: "expected a function",
      })
      .optional(),
  })
  .refine(provenanceCovers, {
    message: "the objectiveProvenance parts' chars must add up to the objective's length",
    path: ["objectiveProvenance"],
  });
