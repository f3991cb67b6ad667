import { randomUUID } from "node:crypto";
import { TaskSpecSchema, type ApprovalDecision } from "@x/runner";
import PgBoss from "pg-boss";
import pg from "pg";
import { QueueError } from "./errors";
import { QueuedSpecSchema, type QueuedSpec, type QueuedTask } from "./queued-task";
import { ensureSchema, schemaName, type Queryable } from "./sql";
import { rowToTask, type TaskRow } from "./task-row";

export interface TaskQueueOptions {
  /** `postgres://…`; or pass `pool`. */
  connectionString?: string;
  /** A pool the host owns (not closed by `stop`). */
  pool?: pg.Pool;
  /** Schema of the queue's tables. Default `x_queue`; pg-boss keeps its own in `<schema>_boss`. */
  schema?: string;
  /**
   * Times a task may be taken without progress (a finished turn, a park, a decision) before it goes
   * to `dead_letter`: a task whose workers keep dying mid-turn stops costing money. Default 3.
   */
  maxAttempts?: number;
  /**
   * Seconds a taken job may go without finishing before pg-boss hands it out again. A worker still
   * running it then holds its task lease, so the new taker waits; a dead one does not. Default 60.
   */
  jobExpireSeconds?: number;
  /** How often pg-boss sweeps expired jobs. Default 15 s. */
  maintenanceIntervalSeconds?: number;
  /**
   * Whether `owner` may run a task in strategy `scope`: checked by `enqueue` (refused with
   * `scope_refused`, nothing stored) and again by the worker that takes the task. Default
   * {@link ownScope}: a tenant's own scopes only.
   */
  scopeAllowed?: (owner: string, scope: string) => boolean;
}

/** The default scope rule: a scope is the owner's name, or the owner's name and `/` then more. */
export function ownScope(owner: string, scope: string): boolean {
  return scope === owner || scope.startsWith(`${owner}/`);
}

/** What a job in pg-boss carries: only the task's id; the row is the source of truth. */
export interface TaskJob {
  taskId: string;
}

export interface EnqueueOptions {
  /** The tenant the task belongs to: every read and approval names it. */
  owner: string;
  /** Strategy scope the worker hands the task (teacher mode, stores); `scopeAllowed` must allow it. */
  scope?: string;
  /**
   * A kind of task a worker runs with its `kinds` (teacher mode, say): omitted, the task is one runner
   * run. A worker without the kind fails the task (`kind_unavailable`) before anything runs.
   */
  kind?: string;
  /** Default: a random UUID. Enqueuing the same id twice is refused by the database. */
  taskId?: string;
}

export interface TaskEvent {
  seq: number;
  at: Date;
  event: Record<string, unknown>;
}

/**
 * The queue: tasks in PostgreSQL, handed to workers by pg-boss. Any process may enqueue, read,
 * approve or reconcile; `createWorker` runs them.
 */
export interface TaskQueue {
  readonly schema: string;
  readonly jobName: string;
  readonly deadJobName: string;
  readonly pool: pg.Pool;
  readonly boss: PgBoss;
  readonly maxAttempts: number;
  /** The queue's scope rule (`TaskQueueOptions.scopeAllowed`), which its workers apply too. */
  scopeAllowed(owner: string, scope: string): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  enqueue(spec: QueuedSpec, options: EnqueueOptions): Promise<string>;
  getTask(taskId: string, owner: string): Promise<QueuedTask>;
  events(taskId: string, owner: string, after?: number): Promise<TaskEvent[]>;
  /**
   * Decides a parked task and enqueues its resume. Of two racing approvals, one wins; the other is
   * refused. Pass the `parkId` of the park the person was shown (`task.result.parked.parkId`): if
   * the task waits on another call by then, the decision is refused (`park_changed`), never applied
   * to a call nobody saw.
   */
  approve(taskId: string, owner: string, decision: ApprovalDecision, options?: { parkId?: string }): Promise<void>;
  /**
   * Settles an `unknown_outcome` task after a person (or the host) checked what the interrupted
   * call did: `happened` with the text the model should see, or `not_run` to run it now.
   */
  reconcile(
    taskId: string,
    owner: string,
    outcome: { happened: true; result: string } | { happened: false },
  ): Promise<void>;
  /**
   * Sends a task's job again (a resume, a deferral); used by workers. A deferral (`startAfterSeconds`)
   * looks again at a task already under way — a dead worker's, once its lease lapses — so it goes
   * ahead of every job of new work: a retake never waits behind the backlog.
   */
  send(taskId: string, db?: Queryable, startAfterSeconds?: number): Promise<void>;
}

/**
 * pg-boss hands out higher priorities first, then older jobs: a look-again job is made when the lease
 * it waits for is due to lapse, so at priority 0 it would queue behind every task enqueued before.
 */
const LOOK_AGAIN_PRIORITY = 1;

/** Retries pg-boss allows a job: far above any task's takes (turns × attempts), below forever. */
const JOB_RETRY_BACKSTOP = 1_000;

export function createTaskQueue(options: TaskQueueOptions): TaskQueue {
  const schema = schemaName(options.schema ?? "x_queue");
  const ownsPool = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: 10 });
  const maxAttempts = options.maxAttempts ?? 3;
  const scopeAllowed = options.scopeAllowed ?? ownScope;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: `${schema}_boss`,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 15,
    monitorStateIntervalSeconds: 3_600,
  });
  const jobName = `${schema}-task`;
  const deadJobName = `${schema}-dead`;
  const tasks = `${schema}.tasks`;
  const jobOptions = (db?: Queryable): PgBoss.SendOptions => ({
    // The task row decides when a task is dead (takes without progress); pg-boss counts every
    // take of a job, progress or not, so its limit is only a backstop: its dead-letter queue
    // catches a job that could not be worked at all (its worker failed before reaching the row).
    retryLimit: JOB_RETRY_BACKSTOP,
    retryDelay: 1,
    expireInSeconds: options.jobExpireSeconds ?? 60,
    deadLetter: deadJobName,
    ...(db ? { db: { executeSql: (text: string, values: unknown[]) => db.query(text, values) } } : {}),
  });
  const taskRow = async (taskId: string, owner: string): Promise<TaskRow> => {
    const found = await pool.query<TaskRow>(`SELECT * FROM ${tasks} WHERE id = $1 AND owner = $2`, [taskId, owner]);
    // Another owner's task answers exactly like a missing one: nothing crosses tenants, not even existence.
    if (!found.rows[0]) throw new QueueError("not_found", `no task ${taskId} for this owner`);
    return found.rows[0];
  };
  const inTransaction = async <T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const value = await body(client);
      await client.query("COMMIT");
      return value;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  const send = async (taskId: string, db?: Queryable, startAfterSeconds?: number) => {
    const job: TaskJob = { taskId };
    await boss.send(jobName, job, {
      ...jobOptions(db),
      // A Date, not a number: pg-boss reads a number as whole seconds, and a look-again that
      // rounds up lands up to a second after the lease it waits for lapsed, once per look.
      ...(startAfterSeconds !== undefined
        ? { startAfter: new Date(Date.now() + startAfterSeconds * 1000), priority: LOOK_AGAIN_PRIORITY }
        : {}),
    });
  };

  return {
    schema,
    jobName,
    deadJobName,
    pool,
    boss,
    maxAttempts,
    scopeAllowed,
    async start() {
      await ensureSchema(pool, schema);
      boss.on("error", () => undefined);
      await boss.start();
      await boss.createQueue(deadJobName);
      await boss.createQueue(jobName, { name: jobName, deadLetter: deadJobName });
    },
    async stop() {
      await boss.stop({ graceful: false, wait: true });
      if (ownsPool) await pool.end();
    },
    async enqueue(spec, enqueueOptions) {
      const parsed = QueuedSpecSchema.safeParse(spec);
      if (!parsed.success) throw new QueueError("invalid_spec", `task spec is not valid: ${parsed.error.message}`);
      // The runner's own rules for a spec too (an objective's provenance that does not cover it),
      // so a task a worker could never start is refused here, before anything is stored.
      const runnable = TaskSpecSchema.safeParse(parsed.data);
      if (!runnable.success) throw new QueueError("invalid_spec", `task spec is not valid: ${runnable.error.message}`);
      const { owner, scope } = enqueueOptions;
      if (scope !== undefined && !scopeAllowed(owner, scope)) {
        // The same words whether the scope belongs to another tenant or to nobody.
        throw new QueueError("scope_refused", `owner ${owner} may not run tasks in scope ${JSON.stringify(scope)}`);
      }
      if (enqueueOptions.kind !== undefined && !/^[a-z][a-z0-9_-]{0,62}$/.test(enqueueOptions.kind)) {
        throw new QueueError(
          "invalid_spec",
          `task kind must be a lower-case name (got ${JSON.stringify(enqueueOptions.kind)})`,
        );
      }
      const taskId = enqueueOptions.taskId ?? randomUUID();
      // The row and its job in one transaction: a task is never queued without a job, nor a job
      // sent for a task that does not exist.
      await inTransaction(async (client) => {
        await client.query(
          `INSERT INTO ${tasks} (id, owner, scope, status, spec, kind) VALUES ($1, $2, $3, 'queued', $4, $5)`,
          [taskId, owner, scope ?? null, JSON.stringify(parsed.data), enqueueOptions.kind ?? null],
        );
        await send(taskId, client);
      });
      return taskId;
    },
    getTask: async (taskId, owner) => rowToTask(await taskRow(taskId, owner)),
    async events(taskId, owner, after = 0) {
      await taskRow(taskId, owner);
      const found = await pool.query<{ seq: string; at: Date; event: Record<string, unknown> }>(
        `SELECT seq, at, event FROM ${schema}.task_events WHERE task_id = $1 AND seq > $2 ORDER BY seq`,
        [taskId, after],
      );
      return found.rows.map((row) => ({ seq: Number(row.seq), at: row.at, event: row.event }));
    },
    async approve(taskId, owner, decision, approveOptions = {}) {
      await taskRow(taskId, owner);
      const shown = approveOptions.parkId ?? null;
      await inTransaction(async (client) => {
        const moved = await client.query(
          `UPDATE ${tasks} SET status = 'resuming', decision = $3, attempts = 0, updated_at = now()
           WHERE id = $1 AND owner = $2 AND status = 'parked' AND ($4::text IS NULL OR park_id = $4)
           RETURNING id`,
          [taskId, owner, JSON.stringify(decision), shown],
        );
        if (moved.rowCount === 1) return send(taskId, client);
        const now = await taskRow(taskId, owner);
        if (now.status === "parked" && shown !== null)
          throw new QueueError("park_changed", `task ${taskId} now waits on another call than the one decided`);
        throw new QueueError("not_parked", `task ${taskId} is not waiting for approval`);
      });
    },
    async reconcile(taskId, owner, outcome) {
      const row = await taskRow(taskId, owner);
      if (row.status !== "unknown_outcome" || !row.park_id) {
        throw new QueueError("not_unknown_outcome", `task ${taskId} has no call of unknown outcome`);
      }
      const park = row.park_id;
      await inTransaction(async (client) => {
        // Fenced by the state: of two people settling the same call, one wins; the other is refused.
        const moved = await client.query(
          `UPDATE ${tasks} SET status = 'resuming', error = NULL, attempts = 0, updated_at = now()
           WHERE id = $1 AND owner = $2 AND status = 'unknown_outcome' RETURNING id`,
          [taskId, owner],
        );
        if (moved.rowCount !== 1) {
          throw new QueueError("not_unknown_outcome", `task ${taskId} has no call of unknown outcome`);
        }
        if (outcome.happened) {
          const pending = (row.parked as { pending: { toolCallId: string; toolName: string } }).pending;
          const result = {
            role: "toolResult",
            toolCallId: pending.toolCallId,
            toolName: pending.toolName,
            content: [{ type: "text", text: outcome.result }],
            isError: false,
            timestamp: Date.now(),
          };
          await client.query(
            `UPDATE ${schema}.park_calls SET state = 'done', done_at = now(), result = $2 WHERE park_id = $1`,
            [park, JSON.stringify(result)],
          );
        } else {
          await client.query(`DELETE FROM ${schema}.park_calls WHERE park_id = $1`, [park]);
        }
        await send(taskId, client);
      });
    },
    send,
  };
}
