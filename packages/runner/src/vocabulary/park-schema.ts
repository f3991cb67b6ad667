import { CompactionStateSchema } from "./compaction-state";
import { DENIAL_LIMIT_REASONS } from "@x/classifier-ladder";
import { MessageSchema, UsageSchema } from "@x/llm-types";
import { z } from "zod/v4";
import { ApprovalKindSchema, taskSpecFields, TaskModelRefSchema } from "./schemas";
import { AutoModeRulingSchema } from "./auto-mode-ruling";
import { PendingElicitationSchema } from "./elicitation";
import { TASK_STATUSES, RUN_TERMINAL_CODES } from "./types";

export const PARKED_RUN_KIND = "x.parked_run";
export const PARKED_RUN_VERSION = 1;

/**
 * The spec of a run as it lives: the JSON-safe part of its TaskSpec with its run id and tool names.
 * Every run holds one, and a park stores it as it is; tools, the output schema and observers come
 * back with `resume`.
 */
export const RunSpecSchema = z.strictObject({
  ...taskSpecFields,
  model: TaskModelRefSchema.optional(),
  runId: z.string().min(1),
  /** The tool names the run had, so a resume without them is refused by name. */
  toolNames: z.array(z.string()),
  hasOutput: z.boolean(),
  /** Set on a sub-run: its park resumes only inside this parent run's. */
  parentRunId: z.string().min(1).optional(),
});
export type RunSpec = z.infer<typeof RunSpecSchema>;

const GateSchema = z.strictObject({
  kind: ApprovalKindSchema,
  waitMs: z.number().nonnegative(),
  decision: z.enum(["approve", "deny", "unavailable", "answer", "decline"]).optional(),
});

const count = z.number().int().nonnegative();

/** A finished child's totals, as its parent's stats keep them. */
const ChildRunStatsSchema = z.strictObject({
  runId: z.string().min(1),
  toolName: z.string().min(1),
  toolCallId: z.string().min(1),
  status: z.enum(TASK_STATUSES),
  code: z.enum(RUN_TERMINAL_CODES),
  tokens: count,
  costMicroUsd: count,
  modelCalls: count,
  classifierCalls: count,
  turns: count,
  tasks: z.number().int().positive(),
});

/** The loop's counters and one-shot recoveries: what makes a resumed run the same run. */
export const RunStateSchema = z.strictObject({
  stats: z.strictObject({
    usage: UsageSchema,
    unbilled: UsageSchema.optional(),
    turns: z.number().int().nonnegative(),
    toolCalls: z.number().int().nonnegative(),
    modelCalls: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
    classifierCalls: z.number().int().nonnegative(),
    gates: z.array(GateSchema),
    children: z.array(ChildRunStatsSchema).optional(),
  }),
  loopGuard: z.strictObject({ lastKey: z.string().optional(), streak: z.number().int().nonnegative() }),
  denials: z.strictObject({
    consecutiveBlocks: z.number().int().nonnegative(),
    totalBlocks: z.number().int().nonnegative(),
    consecutiveUnavailable: z.number().int().nonnegative(),
    tripped: z.enum(DENIAL_LIMIT_REASONS).optional(),
  }),
  recovered: z.strictObject({
    maxTokens: z.boolean(),
    emptyAnswer: z.boolean(),
    degenerate: z.boolean(),
    output: z.boolean(),
  }),
  seatAnnounced: z.boolean(),
  compaction: CompactionStateSchema.optional(),
  /** The run's auto-mode rulings so far, by call key: an identical call later in the run gets the same one. */
  autoModeRulings: z.array(AutoModeRulingSchema).optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

export const PendingCallSchema = z.strictObject({
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  /** Index of the call in the last assistant turn; the calls after it are still to be gated. */
  index: z.number().int().nonnegative(),
  kind: ApprovalKindSchema,
  reason: z.string().optional(),
  /** On kind `elicitation`: the question the running call asked (and the ones it had answered before). */
  elicitation: PendingElicitationSchema.optional(),
  /** The call started a sub-run that parked: the child's own signed park, which waits for the person. */
  get child(): z.ZodOptional<typeof ParkedRunSchema> {
    return ParkedRunSchema.optional();
  },
});
export type PendingCall = z.infer<typeof PendingCallSchema>;

/** A run waiting for a person: plain JSON, stored by the host, handed back to `resume`. */
export const ParkedRunSchema = z.strictObject({
  kind: z.literal(PARKED_RUN_KIND),
  version: z.literal(PARKED_RUN_VERSION),
  parkId: z.string().min(16),
  createdAt: z.number(),
  expiresAt: z.number(),
  spec: RunSpecSchema,
  history: z.array(MessageSchema),
  /** New messages of the run so far; the last is the assistant turn holding the pending call. */
  messages: z.array(MessageSchema).min(1),
  pending: PendingCallSchema,
  state: RunStateSchema,
  /** sha256 of the canonical JSON of history + messages. */
  historyDigest: z.string().regex(/^[0-9a-f]{64}$/),
  /** HMAC-SHA256, hex. */
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ParkedRun = z.infer<typeof ParkedRunSchema>;
