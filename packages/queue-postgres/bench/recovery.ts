import type pg from "pg";

/** Where a run's time went when workers died: read from the task events and pg-boss's tables. */
export interface Recovery {
  /** Takes of a task whose previous holder stopped without ending it (a crash, a lost lease). */
  retakes: number;
  /** Milliseconds from such a task's last sign of life to its next take: median and 90th percentile. */
  idleMs: { p50: number; p90: number };
  /** pg-boss jobs the run created, per task (1 for a task that ran straight through). */
  jobsPerTask: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

export async function readRecovery(db: pg.Pool, schema: string, jobName: string, tasks: number): Promise<Recovery> {
  const gaps = await db.query<{ ms: number }>(
    `WITH e AS (
       SELECT at, event->>'type' AS type,
         lag(at) OVER w AS prev_at, lag(event->>'type') OVER w AS prev_type
       FROM ${schema}.task_events WINDOW w AS (PARTITION BY task_id ORDER BY seq))
     SELECT (extract(epoch FROM at - prev_at) * 1000)::float8 AS ms FROM e
     WHERE type = 'take' AND prev_type IS NOT NULL AND prev_type <> 'end' ORDER BY ms`,
  );
  const jobs = await db.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM ${schema}_boss.job WHERE name = $1)
          + (SELECT count(*) FROM ${schema}_boss.archive WHERE name = $1) AS n`,
    [jobName],
  );
  const sorted = gaps.rows.map((row) => row.ms);
  return {
    retakes: sorted.length,
    idleMs: { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) },
    jobsPerTask: Number(jobs.rows[0]!.n) / tasks,
  };
}
