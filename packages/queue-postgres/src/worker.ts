import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { CodedError, isCodedError } from "@x/llm-types";
import {
  createRunner,
  PARKED_RUN_ERROR_CODES,
  ToolGrantError,
  type Runner,
  type RunnerDeps,
  type TaskResult,
  type Tool,
  type ToolResultInfo,
} from "@x/runner";
import type { RunCheckpoint, RunCheckpointSegment } from "@x/runner/backend";
import type PgBoss from "pg-boss";
import { checkpointSink, toolResultEvent } from "./checkpoint-sink";
import { kindTake } from "./kind-take";
import { createPostgresParkLedger } from "./pg-park-ledger";
import type { QueuedSpec } from "./queued-task";
import type { TaskKind } from "./task-kind";
import { eventTexts, insertEvents, type TaskEvent } from "./task-events";
import type { TaskJob, TaskQueue } from "./task-queue";
import type { TaskRow } from "./task-row";
import { handBackTask } from "./task-hand-back";
import { taskTurns } from "./task-turns";

export interface WorkerOptions {
  queue: TaskQueue;
  /**
   * How to make the runner, without `parkLedger` (the worker brings its PostgreSQL ledger). Give
   * every worker the same `parkKey`: a park or checkpoint signed by one is resumed by another.
   */
  runner: Omit<RunnerDeps, "parkLedger" | "parkKey"> & { parkKey: string | Uint8Array };
  /**
   * The tools this worker has on hand, or per task (a host binds tools to the task's owner and scope
   * here). A task is offered exactly the tools its `toolNames` grant, from these — never the rest —
   * and its resumes and retakes the same signed grant; a granted name missing here fails the task
   * (`tool_unavailable`, or `unknown_tool` for a parked or checkpointed one), with nothing run.
   */
  tools: readonly Tool[] | ((task: TaskToolsRequest) => readonly Tool[]);
  /**
   * The kinds of task this worker runs beside plain runner runs, by the name `enqueue` gives
   * (`kind`): e.g. `{ teacher: teacherTask({ … }) }` from `@x/teacher`. A task of a kind missing here
   * fails `kind_unavailable` before anything runs.
   */
  kinds?: Readonly<Record<string, TaskKind>>;
  /** Tasks run at once in this process. Default 8. */
  concurrency?: number;
  /** How long a task (and a call it executes) is held without renewal. Default 15 000 ms. */
  leaseMs?: number;
  /** Pause between polls when there is nothing to do. Default 200 ms. */
  pollMs?: number;
  /** Default: a random id; kept on every row this worker leases, for whoever investigates. */
  workerId?: string;
}

/** What a per-task `tools` callback is told about the task it supplies tools for. */
export interface TaskToolsRequest {
  taskId: string;
  owner: string;
  scope: string | null;
  /** The tool names the task is granted: the run is offered exactly these of what the callback returns. */
  toolNames: readonly string[];
}

export interface Worker {
  readonly workerId: string;
  /** Starts polling; resolves once the first poll is under way. */
  start(): Promise<void>;
  /**
   * Stops taking work, waits for the tasks in flight (aborting them after `graceMs`: each is handed
   * back to the queue from its last checkpoint, for another worker to take at once), then returns.
   */
  stop(graceMs?: number): Promise<void>;
}

/** States in which a task still has work for a worker (and a job that hands it out). */
const OPEN_STATES: ReadonlySet<string> = new Set(["queued", "running", "resuming"]);

/** Why a task row could not be leased right now. */
type Lease = { row: TaskRow } | { busyForMs: number } | { settled: true };

export function createWorker(options: WorkerOptions): Worker {
  const { queue } = options;
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const leaseMs = options.leaseMs ?? 15_000;
  const concurrency = options.concurrency ?? 8;
  const tasks = `${queue.schema}.tasks`;
  const ledger = createPostgresParkLedger({ db: queue.pool, schema: queue.schema, owner: workerId, leaseMs });
  const runner: Runner = createRunner({ ...options.runner, parkLedger: ledger });
  const turns = taskTurns(queue.pool, queue.schema);
  const active = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let stopping = false;
  let polling: Promise<void> | undefined;

  const lease = async (taskId: string): Promise<Lease> => {
    const taken = await queue.pool.query<TaskRow>(
      `UPDATE ${tasks} SET lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond',
         attempts = attempts + 1, updated_at = now(),
         status = CASE WHEN status = 'queued' THEN 'running' ELSE status END
       WHERE id = $1 AND status IN ('queued', 'running', 'resuming')
         AND (lease_until IS NULL OR lease_until < now())
       RETURNING *`,
      [taskId, workerId, leaseMs],
    );
    if (taken.rows[0]) return { row: taken.rows[0] };
    // Read apart from the update, so the lease may have lapsed in between: a task still open is
    // looked at again (at once when its lease is already gone), never dropped with its job.
    const held = await queue.pool.query<{ status: string; ms: number }>(
      `SELECT status, coalesce(greatest(0, extract(epoch FROM lease_until - now()) * 1000), 0)::float8 AS ms
       FROM ${tasks} WHERE id = $1`,
      [taskId],
    );
    const found = held.rows[0];
    return found && OPEN_STATES.has(found.status) ? { busyForMs: found.ms } : { settled: true };
  };

  /**
   * Writes only while this worker still holds the task: a worker that lost its lease writes nothing.
   * With `told`, the same statement appends those events (the task's end last), so a task's end is
   * told exactly when it is written — even by a write that gives the lease up.
   */
  const fenced = async (
    taskId: string,
    set: string,
    values: unknown[],
    told?: readonly TaskEvent[],
  ): Promise<boolean> => {
    const update = `UPDATE ${tasks} SET ${set}, updated_at = now() WHERE id = $1 AND lease_owner = $2 RETURNING id`;
    // A task that ends or parks has no more use for its checkpoint chain: dropped in the same statement.
    const sql = told
      ? `WITH moved AS (${update}),
           dropped AS (DELETE FROM ${queue.schema}.task_turns WHERE task_id IN (SELECT id FROM moved))
         ${insertEvents(queue.schema, "moved", `$${values.length + 3}`)}`
      : update;
    const said = told ? [eventTexts(told)] : [];
    const written = await queue.pool.query(sql, [taskId, workerId, ...values, ...said]);
    return told ? written.rowCount === told.length : written.rowCount === 1;
  };

  /**
   * Appends an event while this worker still holds the task, fenced like every other write: a
   * worker that lost its lease (frozen, then thawed after another took over) adds nothing after the
   * new owner's events. The row is read `FOR SHARE`, so a takeover waits for this insert to commit.
   */
  const event = (taskId: string, value: TaskEvent) =>
    queue.pool
      .query(
        `INSERT INTO ${queue.schema}.task_events (task_id, event)
         SELECT id, $2 FROM ${tasks} WHERE id = $1 AND lease_owner = $3 FOR SHARE`,
        [taskId, JSON.stringify(value), workerId],
      )
      .then(() => undefined);

  /**
   * Runs a taken task. Its `tool_result` events wait in `unsaid` for the link that makes those
   * results durable (or the write that ends the task), and are written with it.
   */
  const run = async (row: TaskRow, signal: AbortSignal, unsaid: TaskEvent[]): Promise<TaskResult> => {
    const tools =
      typeof options.tools === "function"
        ? options.tools({ taskId: row.id, owner: row.owner, scope: row.scope, toolNames: row.spec.toolNames })
        : options.tools;
    const onToolResult = (info: ToolResultInfo) => {
      unsaid.push(toolResultEvent(info));
      return Promise.resolve();
    };
    if (row.kind !== null) {
      const kind = options.kinds?.[row.kind];
      if (!kind) throw new KindUnavailableError(`this worker runs no task of kind ${JSON.stringify(row.kind)}`);
      const take = kindTake({
        row,
        runner,
        tools,
        signal,
        turns,
        checkpointSink: (chain) => checkpointSink(turns, row.id, workerId, turnsOf(chain, null), unsaid),
        observe: onToolResult,
        writeState: (json) => fenced(row.id, `driver_state = $3, attempts = 1`, [json]),
      });
      return kind.run(take);
    }
    const chain = await turns.read(row.id);
    // A task in flight across an upgrade may still hold a whole checkpoint instead of a chain.
    const legacy = row.checkpoint as RunCheckpoint | null;
    const onCheckpointSegment = checkpointSink(turns, row.id, workerId, turnsOf(chain, legacy), unsaid);
    const common = { tools, signal, onCheckpointSegment, onToolResult };
    const checkpointed = chain.length > 0 ? chain : legacy;
    const checkpointedMessages =
      chain.length > 0 ? chain.reduce((n, link) => n + link.messages.length, 0) : (legacy?.messages.length ?? 0);
    const parked = row.parked as { messages: unknown[] } | null;
    if (row.status === "resuming" && parked) {
      // A checkpoint written after the park means the decided call already ran and the run went
      // on: continue from there, never from the park.
      if (checkpointed && checkpointedMessages > parked.messages.length)
        return runner.continueRun(checkpointed, common);
      return runner.resume(parked, row.decision ?? { decision: "deny", reason: "no decision" }, common);
    }
    if (checkpointed) return runner.continueRun(checkpointed, common);
    // The runner grants the task exactly its `toolNames` from `tools` (`grantTools`), as it does on resume.
    const spec: QueuedSpec = row.spec;
    return runner.runTask({ ...spec, tools, runId: row.id, onToolResult }, { signal, onCheckpointSegment });
  };

  /** The end is told only by the worker that still holds the task (one that lost it ends nothing). */
  const settle = async (row: TaskRow, result: TaskResult, unsaid: readonly TaskEvent[]) => {
    const end = [...unsaid, { type: "end", status: result.status, code: result.terminal.code }];
    if (result.status === "parked" && result.parked) {
      return fenced(
        row.id,
        `status = 'parked', parked = $3, park_id = $4, checkpoint = NULL, decision = NULL, result = $5,
         attempts = 0, lease_owner = NULL, lease_until = NULL`,
        [JSON.stringify(result.parked), result.parked.parkId, JSON.stringify(result)],
        end,
      );
    }
    const status = result.status === "completed" ? "completed" : "failed";
    return fenced(
      row.id,
      `status = $3, result = $4, error = $5, checkpoint = NULL, lease_until = NULL`,
      [status, JSON.stringify(result), status === "failed" ? `${result.status}: ${result.terminal.message}` : null],
      end,
    );
  };

  const work = async (taskId: string, abort: AbortController): Promise<void> => {
    const taken = await lease(taskId);
    if ("settled" in taken) return;
    if ("busyForMs" in taken) {
      // Held (its job expired while its worker kept renewing, or the worker died and the lease
      // still runs): look again the moment the lease would lapse, so a dead worker's task waits
      // one lease at most — not a lease plus the rounding of every look.
      await queue.send(taskId, undefined, taken.busyForMs / 1000 + 0.05);
      return;
    }
    const { row } = taken;
    // Checked again here: the row may come from an enqueuer with another rule, or from SQL.
    if (row.scope !== null && !queue.scopeAllowed(row.owner, row.scope)) {
      await fenced(row.id, `status = 'failed', error = $3, lease_until = NULL`, [
        `scope_refused: owner ${row.owner} may not run tasks in scope ${JSON.stringify(row.scope)}`,
      ]);
      return;
    }
    if (row.attempts > queue.maxAttempts) {
      await fenced(row.id, `status = 'dead_letter', error = $3, lease_until = NULL`, [
        `taken ${row.attempts - 1} times without progress (its workers died mid-turn, or it kept failing)`,
      ]);
      return;
    }
    // Who took the task, and which take since its last progress: a retake after a crash shows here.
    await event(row.id, { type: "take", workerId, attempt: row.attempts });
    const unsaid: TaskEvent[] = [];
    const renew = setInterval(() => {
      fenced(row.id, `lease_until = now() + $3 * interval '1 millisecond'`, [leaseMs]).then(
        (held) => held || abort.abort(new Error("lease lost")),
        () => undefined,
      );
    }, leaseMs / 3);
    renew.unref();
    try {
      const result = await run(row, abort.signal, unsaid);
      // Stopped by this worker's shutdown: handed back at once. The job this worker took ends here,
      // so without a new one the task would be left running, with no job to hand it out again.
      if (result.status === "aborted" && stopping) {
        clearInterval(renew);
        return await handBackTask(queue, workerId, row.id, 0);
      }
      await settle(row, result, unsaid);
    } catch (error) {
      if (error instanceof ToolGrantError) {
        const end = [{ type: "end", status: "failed", code: error.code }];
        await fenced(
          row.id,
          `status = 'failed', error = $3, lease_until = NULL`,
          [`${error.code}: ${error.message}`],
          end,
        );
        return;
      }
      if (error instanceof KindUnavailableError || (row.kind !== null && isKindRefusal(error))) {
        // A kind's own refusal (a state that fails its check, say) is final: no retake would pass it.
        const end = [{ type: "end", status: "failed", code: error.code }];
        await fenced(
          row.id,
          `status = 'failed', error = $3, lease_until = NULL`,
          [`${error.code}: ${error.message}`],
          end,
        );
        return;
      }
      if (!isCodedError(error, PARKED_RUN_ERROR_CODES)) throw error;
      if (error.code === "in_progress") {
        clearInterval(renew);
        await handBackTask(queue, workerId, row.id, Math.ceil(leaseMs / 1000));
      } else {
        const status = error.code === "unknown_outcome" ? "unknown_outcome" : "failed";
        await fenced(row.id, `status = $3, error = $4, lease_until = NULL`, [status, error.message]);
      }
    } finally {
      clearInterval(renew);
    }
  };

  const take = (job: PgBoss.Job<TaskJob>, name: string) => {
    const abort = new AbortController();
    const body = name === queue.deadJobName ? markDead(job.data.taskId) : work(job.data.taskId, abort);
    const done = body.then(
      () => queue.boss.complete(name, job.id),
      (error: unknown) => queue.boss.fail(name, job.id, { message: String(error) }),
    );
    const entry = {
      abort,
      done: done.then(
        () => undefined,
        () => undefined,
      ),
    };
    active.set(job.id, entry);
    void entry.done.finally(() => active.delete(job.id));
  };

  const markDead = async (taskId: string) => {
    await queue.pool.query(
      `UPDATE ${tasks}
       SET status = 'dead_letter', error = coalesce(error, 'its job failed every retry'), updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'running', 'resuming')`,
      [taskId],
    );
  };

  const poll = async () => {
    while (!stopping) {
      const free = concurrency - active.size;
      let fetched = 0;
      if (free > 0) {
        for (const name of [queue.jobName, queue.deadJobName]) {
          const jobs = await queue.boss.fetch<TaskJob>(name, { batchSize: free }).catch(() => []);
          for (const job of jobs) take(job, name);
          fetched += jobs.length;
        }
      }
      if (fetched === 0) await sleep(options.pollMs ?? 200);
    }
  };

  return {
    workerId,
    async start() {
      polling = poll();
    },
    async stop(graceMs = 5_000) {
      stopping = true;
      await polling;
      const drained = Promise.all([...active.values()].map((entry) => entry.done));
      const timer = setTimeout(() => {
        for (const entry of active.values()) entry.abort.abort(new Error("worker stopping"));
      }, graceMs);
      await drained;
      clearTimeout(timer);
      ledger.close();
    },
  };
}

/** A task of a kind this worker was not given (`WorkerOptions.kinds`). */
class KindUnavailableError extends CodedError<"kind_unavailable"> {
  override readonly name = "KindUnavailableError";
  constructor(message: string) {
    super("kind_unavailable", message);
  }
}

/** A coded refusal from a task kind's own code, other than the runner's park errors (handled apart). */
function isKindRefusal(error: unknown): error is CodedError<string> {
  return isCodedError(error) && !isCodedError(error, PARKED_RUN_ERROR_CODES);
}

/** The turns a run's checkpoint (its chain, or a legacy whole checkpoint) has already told. */
function turnsOf(chain: RunCheckpointSegment[], legacy: RunCheckpoint | null): number {
  return chain.at(-1)?.state.stats.turns ?? legacy?.state.stats.turns ?? 0;
}
