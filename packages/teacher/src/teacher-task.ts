import type { Message } from "@x/llm-types";
import { MIN_PARK_KEY_BYTES, type Runner, type TaskResult, type TaskSpec } from "@x/runner";
import type { TeacherConfig } from "./config";
import { TeacherError } from "./errors";
import type { TeacherRunResult } from "./result";
import { teacherLoop } from "./run-with-teacher";
import { TeacherJournal } from "./teacher-journal";
import { readTeacherState } from "./teacher-state";

/** The queued task a teacher task's options are chosen for. */
export interface TeacherTaskInfo {
  taskId: string;
  owner: string;
  scope: string | null;
}

export interface TeacherTaskOptions {
  /**
   * Signs the escalation state a worker stores (HMAC-SHA256), so a state altered in storage is refused
   * (`teacher.state_tampered`). Every worker needs the same key; the runner's park key will do. At
   * least 32 bytes.
   */
  key: string | Uint8Array;
  /**
   * Teacher mode's options (as for `runWithTeacher`), or a function choosing them per task. With a
   * `strategyStore` and no `scope`, the task's own scope is used — the queue has checked the owner may
   * use it.
   */
  config?: TeacherConfig | ((task: TeacherTaskInfo) => TeacherConfig);
}

/**
 * What a queue hands a teacher task on each take: `@x/queue-postgres`'s `TaskKindTake` has this shape,
 * so the two packages import nothing of each other (a host wires them).
 */
export interface TeacherTaskTake extends TeacherTaskInfo {
  /** The queued spec, with the task's tools: the student's task. */
  spec: TaskSpec;
  runner: Runner;
  /** What `saveState` stored on an earlier take, as stored (verified here), or `null`. */
  state: unknown;
  saveState(state: unknown): Promise<void>;
  /** One runner run, checkpointed by the queue: started, continued from its chain, or resumed from its park. */
  runStep(
    spec: TaskSpec & { runId: string },
    options?: { onRestore?: (messages: readonly Message[]) => void },
  ): Promise<TaskResult>;
}

/** A teacher-mode task kind for a queue's workers: `createWorker({ …, kinds: { teacher: teacherTask({ key }) } })`. */
export interface TeacherTask {
  run(take: TeacherTaskTake): Promise<TeacherRunResult>;
}

/**
 * Teacher mode as a queued task: `runWithTeacher`'s loop, with every step that acts on the world —
 * strategies recalled, each student run, each verdict and policy answer, the teacher's advice, a
 * takeover, the strategy stored — recorded in a signed state the worker stores before the loop goes
 * on. A worker that takes the task over (the last one died, or a park was decided) reads that state
 * back (schema, version, task and signature checked; a refusal is a typed {@link TeacherError}) and
 * replays the recorded steps instead of doing them again: no escalation that was recorded is asked
 * again, no strategy stored twice, stats and cost summed over every take. Student runs and the
 * takeover run checkpointed by the queue, so one cut mid-run goes on from its last finished turn, and
 * a student run that parks parks the task.
 */
export function teacherTask(options: TeacherTaskOptions): TeacherTask {
  const bytes = typeof options.key === "string" ? Buffer.byteLength(options.key) : options.key.byteLength;
  if (bytes < MIN_PARK_KEY_BYTES) {
    throw new TeacherError("teacher.config_invalid", `teacherTask: key must be at least ${MIN_PARK_KEY_BYTES} bytes`);
  }
  return {
    async run(take) {
      const info: TeacherTaskInfo = { taskId: take.taskId, owner: take.owner, scope: take.scope };
      const stored =
        take.state === null || take.state === undefined
          ? undefined
          : readTeacherState(take.state, options.key, take.taskId);
      const chosen = typeof options.config === "function" ? options.config(info) : (options.config ?? {});
      const config =
        chosen.strategyStore !== undefined && chosen.scope === undefined && take.scope !== null
          ? { ...chosen, scope: take.scope }
          : chosen;
      // One session per task, on every take: the provider's prompt cache keeps hitting across workers.
      const sessionId = stored?.sessionId ?? take.spec.sessionId ?? `student-${take.taskId}`;
      const store = { taskId: take.taskId, key: options.key, save: (state: unknown) => take.saveState(state) };
      const journal = new TeacherJournal(sessionId, store, stored);
      return teacherLoop(take.runner, take.spec, config, {
        journal,
        taskId: take.taskId,
        runStep: (spec, hooks) => take.runStep(spec, hooks),
      });
    },
  };
}
