import { describeIssues, issuesLine, MessageSchema } from "@x/llm-types";
import { TASK_STATUSES, type RunStats } from "@x/runner";
import { StrategyRecordSchema } from "@x/strategy-store-core";
import { z } from "zod/v4";
import { TeacherError } from "./errors";
import { signTeacherState, TEACHER_STATE_KIND, TEACHER_STATE_VERSION, type TeacherState } from "./teacher-state";

/** Reads one recorded step's value back: its schema, else `teacher.state_invalid`. */
export type StepReader<T> = (raw: unknown) => T;

/**
 * A reader checking `schema`. The schemas below check what the loop reads of a value (a task result's
 * status, terminal, output, messages and stats); the signature over the whole state vouches for the rest.
 */
export function reader<T>(schema: z.ZodType, what: string): StepReader<T> {
  return (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new TeacherError(
        "teacher.state_invalid",
        `teacher state: ${what} is not valid: ${issuesLine(parsed.error)}`,
        {
          cause: describeIssues(parsed.error),
        },
      );
    }
    return parsed.data as T;
  };
}

const count = z.number().nonnegative();
export const RunStatsSchema = z.looseObject({
  tokens: count,
  tasks: count,
  costUsd: count,
  costMicroUsd: count,
  turns: count,
  toolCalls: count,
  modelCalls: count,
  retries: count,
  classifierCalls: count,
  usage: z.looseObject({}),
  humanReview: z.looseObject({ count, totalWaitMs: count, gates: z.array(z.looseObject({ kind: z.string() })) }),
});
export const TaskResultSchema = z.looseObject({
  status: z.enum(TASK_STATUSES),
  terminal: z.looseObject({ code: z.string(), message: z.string() }),
  output: z.string(),
  messages: z.array(MessageSchema),
  stats: RunStatsSchema,
  runId: z.string(),
});
export const AdviceSchema = z.strictObject({
  strategy: z.string().optional(),
  correction: z.string().optional(),
  nextStep: z.string().optional(),
  takeover: z.boolean(),
  confidence: z.number().int().min(0).max(3),
  raw: z.string().optional(),
});
export const VerdictSchema = z.strictObject({
  run: z.number().int().positive(),
  of: z.literal("takeover").optional(),
  by: z.enum(["code", "rubric"]),
  pass: z.boolean().optional(),
  reason: z.string().optional(),
  samples: count,
  tokens: count,
  costMicroUsd: count,
  error: z.string().optional(),
});
export const StuckSnapshotSchema = z.strictObject({
  streakTool: z.string().optional(),
  streak: count,
  failures: z.record(z.string(), count),
  recent: z.array(z.string()),
});
export const HitsSchema = z.array(z.strictObject({ record: StrategyRecordSchema, score: z.number() }));
export const JudgementSchema = z.strictObject({
  pass: z.boolean().optional(),
  reason: z.string().optional(),
  verdicts: z.array(VerdictSchema),
  helperStats: z.array(RunStatsSchema),
});
const TriggerSchema = z.strictObject({
  trigger: z.enum(["stuck", "blocked", "failed", "verify-fail"]),
  reason: z.string(),
  verifyReason: z.string().optional(),
});
export const FiredSchema = z.strictObject({
  trigger: TriggerSchema.optional(),
  helperStats: z.array(RunStatsSchema),
  verdicts: z.array(VerdictSchema),
});
export const StudentStepSchema = z.strictObject({
  result: TaskResultSchema,
  helperStats: RunStatsSchema,
  tracker: StuckSnapshotSchema,
});
export const AdviceStepSchema = z.strictObject({ advice: AdviceSchema, answered: z.boolean(), stats: RunStatsSchema });
export const TakeoverStepSchema = z.strictObject({
  result: TaskResultSchema,
  advice: AdviceSchema,
  reached: z.boolean(),
});
export const StoredStepSchema = z.strictObject({
  stored: z.strictObject({ id: z.string(), strategy: z.string(), confidence: z.number() }).optional(),
});

/** Where a durable journal keeps its state: a queued task's take (`saveState`), keyed by the host's key. */
export interface JournalStore {
  taskId: string;
  key: string | Uint8Array;
  save(state: TeacherState): Promise<void>;
}

/**
 * The outer loop's record of what has happened. Without a store (a plain `runWithTeacher`) every step
 * just runs. With one, a step already recorded is read back instead of done again, and a new step is
 * stored (signed) before the loop goes on — so a worker that dies loses at most the step in flight.
 */
export class TeacherJournal {
  private readonly steps: Record<string, z.core.util.JSONType>;
  private live: TeacherState["live"];

  constructor(
    readonly sessionId: string,
    private readonly store?: JournalStore,
    from?: TeacherState,
  ) {
    this.steps = { ...(from?.steps ?? {}) };
    this.live = from?.live;
  }

  get durable(): boolean {
    return this.store !== undefined;
  }

  /** The value recorded under `key`, read by `read`; undefined when the step has not happened. */
  replay<T>(key: string, read: StepReader<T>): T | undefined {
    return Object.hasOwn(this.steps, key) ? read(this.steps[key]) : undefined;
  }

  /** Records `value` under `key` and stores the state; returns the value as it will be read back. */
  async record<T>(key: string, value: T): Promise<T> {
    if (!this.store) return value;
    const json = JSON.parse(JSON.stringify(value ?? null)) as z.core.util.JSONType;
    this.steps[key] = json;
    if (this.live && key.startsWith("student:")) this.live = undefined;
    await this.save();
    return json as T;
  }

  /**
   * The step's recorded value, else `run`'s, recorded — unless `keep` says the step is not over (a run
   * that parked): then it is done again by the next take. `replayed` says which.
   */
  async step<T>(
    key: string,
    read: StepReader<T>,
    run: () => Promise<T>,
    keep: (value: T) => boolean = () => true,
  ): Promise<{ value: T; replayed: boolean }> {
    const recorded = this.replay(key, read);
    if (recorded !== undefined) return { value: recorded, replayed: true };
    const value = await run();
    return { value: keep(value) ? await this.record(key, value) : value, replayed: false };
  }

  /** What the student run `run` has spent on monitor calls so far, as last stored. */
  liveStats(run: number): RunStats | undefined {
    if (this.live?.run !== run) return undefined;
    return reader<RunStats>(RunStatsSchema, "the live monitor stats")(this.live.helperStats);
  }

  /** Stores what the student run in flight has spent on monitor calls (a retake bills it too). */
  async saveLive(run: number, helperStats: RunStats): Promise<void> {
    if (!this.store) return;
    this.live = { run, helperStats: JSON.parse(JSON.stringify(helperStats)) as z.core.util.JSONType };
    await this.save();
  }

  private async save(): Promise<void> {
    const store = this.store!;
    const unsigned = {
      kind: TEACHER_STATE_KIND,
      version: TEACHER_STATE_VERSION,
      taskId: store.taskId,
      sessionId: this.sessionId,
      steps: this.steps,
      ...(this.live ? { live: this.live } : {}),
    } as const;
    await store.save(signTeacherState(unsigned, store.key));
  }
}
