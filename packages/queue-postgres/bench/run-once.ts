import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createTaskQueue, type TaskQueue } from "../src/index";
import { readEffects, type EffectCount } from "./effect-log";
import { deployObjective, stepsObjective, type BenchModelServer } from "./model-server";
import { cpuLedger, processCpuSeconds } from "./proc-cpu";
import { readRecovery, type Recovery } from "./recovery";
import { queueSettings } from "./settings";

const here = dirname(fileURLToPath(import.meta.url));
const OWNER = "bench";
const ENDED = ["completed", "failed", "dead_letter", "unknown_outcome"];

export interface RunSettings {
  url: string;
  server: BenchModelServer;
  tasks: number;
  workers: number;
  /** 0: no kills; else one worker is SIGKILLed this often. */
  killEveryMs: number;
  deadlineMs: number;
  /** The bundled worker (`bundleWorker`) each worker process runs. */
  workerScript: string;
}

export interface RunReport extends RunSettings {
  wallMs: number;
  states: Record<string, number>;
  modelCalls: number;
  kills: number;
  /** Approvals accepted and refused (`not_parked`) when two approvers race for every parked task. */
  approvals: { won: number; refused: number };
  /** unknown_outcome tasks settled from the effect log: the deploy happened / had not started. */
  reconciled: { happened: number; notRun: number };
  effects: EffectCount;
  /** Not ended and with no job left to run them (or no row at all): never to end. */
  lost: number;
  /** A few of the lost tasks, described, to investigate. */
  lostTasks: string[];
  /** Not ended at the deadline but with a job still queued. */
  unfinished: number;
  /** Why tasks ended failed or dead_letter, with counts. */
  reasons: Record<string, number>;
  cpuSeconds: { workers: number; database: number; bench: number };
  load: { start: number; end: number };
  /** Worker starts (spawn to "ready"): how many, the median wall ms, and the CPU they took. */
  boots: { count: number; medianMs: number; cpuSeconds: number };
  recovery: Recovery;
}

interface BenchWorker {
  child: ChildProcess;
  spawnedAt: number;
  /** When it printed "ready" (its queue and worker started), or undefined while it boots. */
  readyAt?: number;
  /** CPU seconds the process had used when it was ready: what starting it cost. */
  bootCpu?: number;
}

/** The connection string with an application name, so the run's database backends can be found. */
function tagged(url: string, name: string): string {
  const withName = new URL(url);
  withName.searchParams.set("application_name", name);
  return withName.toString();
}

function startWorker(script: string, url: string, schema: string, baseUrl: string, effectLog: string): BenchWorker {
  const child = spawn(process.execPath, [script, url, schema, baseUrl, effectLog], {
    cwd: join(here, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const worker: BenchWorker = { child, spawnedAt: Date.now() };
  child.stdout.on("data", (chunk: Buffer) => {
    if (!chunk.toString().includes("ready") || worker.readyAt !== undefined) return;
    worker.readyAt = Date.now();
    worker.bootCpu = processCpuSeconds(child.pid!);
  });
  return worker;
}

function bootStats(workers: readonly BenchWorker[]): RunReport["boots"] {
  const ready = workers.filter((w) => w.readyAt !== undefined);
  const ms = ready.map((w) => w.readyAt! - w.spawnedAt).sort((a, b) => a - b);
  return {
    count: ready.length,
    medianMs: ms[Math.floor(ms.length / 2)] ?? 0,
    cpuSeconds: ready.reduce((sum, w) => sum + (w.bootCpu ?? 0), 0),
  };
}

/** A worker that has been working for a while: killing one that is still booting measures nothing. */
function victimOf(pool: BenchWorker[], minUpMs: number): number | undefined {
  const up = pool.flatMap((w, i) => (w.readyAt !== undefined && Date.now() - w.readyAt > minUpMs ? [i] : []));
  return up.length > 0 ? up[Math.floor(Math.random() * up.length)] : undefined;
}

async function enqueueAll(queue: TaskQueue, tasks: number) {
  for (let i = 0; i < tasks; i += 200) {
    const batch = Array.from({ length: Math.min(200, tasks - i) }, (_, j) => i + j);
    await Promise.all(
      batch.map((n) =>
        queue.enqueue(
          { objective: n % 10 === 0 ? deployObjective(n) : stepsObjective(n), toolNames: ["step", "deploy"] },
          { owner: OWNER },
        ),
      ),
    );
  }
}

/** Runs `tasks` tasks on `workers` worker processes until every task ended or the deadline passed. */
export async function runOnce(settings: RunSettings): Promise<RunReport> {
  const { server, tasks, workers, killEveryMs } = settings;
  const schema = `x_queue_bench_${workers}_${killEveryMs > 0 ? "kill" : "plain"}`;
  const url = tagged(settings.url, schema);
  const effectLog = join(tmpdir(), `${schema}-effects.log`);
  writeFileSync(effectLog, "");
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  // Two approvers, each its own pool and pg-boss, racing for every parked task — neither a worker.
  const approvers = [0, 1].map(() => createTaskQueue({ connectionString: url, schema, ...queueSettings }));
  for (const approver of approvers) await approver.start();
  const queue = approvers[0]!;
  const callsBefore = server.calls();
  const start = () => startWorker(settings.workerScript, url, schema, server.baseUrl, effectLog);
  const pool = Array.from({ length: workers }, start);
  const spawned = [...pool];
  // Throughput is timed from the moment every worker is up (not from process start-up) to the last
  // task's end, the enqueueing included: the tasks arrive while the workers already run.
  while (pool.some((w) => w.readyAt === undefined)) await sleep(50);

  const workerCpu = cpuLedger();
  const databaseCpu = cpuLedger();
  const backends = async () =>
    (
      await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [schema])
    ).rows.map((row) => row.pid);
  const sample = async () => {
    workerCpu.sample(pool.flatMap((w) => (w.child.pid ? [w.child.pid] : [])));
    databaseCpu.sample(await backends());
  };
  await sample();
  const cpuAtStart = { workers: workerCpu.total(), database: databaseCpu.total(), bench: process.cpuUsage() };
  const loadAtStart = loadavg()[0]!;
  const started = Date.now();
  await enqueueAll(queue, tasks);
  const approvals = { won: 0, refused: 0 };
  const reconciled = { happened: 0, notRun: 0 };
  let kills = 0;
  let lastKill = Date.now();
  const states: Record<string, number> = {};
  for (;;) {
    await sleep(250);
    await sample();
    const waiting = await admin.query<{ id: string; status: string }>(
      `SELECT id, status FROM ${schema}.tasks WHERE status IN ('parked', 'unknown_outcome')`,
    );
    for (const { id, status } of waiting.rows) {
      if (status === "parked") {
        const answers = await Promise.allSettled(approvers.map((a) => a.approve(id, OWNER, { decision: "approve" })));
        approvals.won += answers.filter((a) => a.status === "fulfilled").length;
        approvals.refused += answers.filter((a) => a.status === "rejected").length;
      } else {
        // A person's check of the target, done here by reading the effect log: did the deploy happen?
        const happened = (readEffects(effectLog).deploysByTask.get(id) ?? 0) > 0;
        await queue.reconcile(id, OWNER, happened ? { happened, result: "deploy 1 done" } : { happened });
        reconciled[happened ? "happened" : "notRun"] += 1;
      }
    }
    const counts = await admin.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM ${schema}.tasks GROUP BY status`,
    );
    for (const key of Object.keys(states)) delete states[key];
    for (const row of counts.rows) states[row.status] = Number(row.n);
    const ended = ["completed", "failed", "dead_letter"].reduce((sum, s) => sum + (states[s] ?? 0), 0);
    if (ended === tasks || Date.now() - started > settings.deadlineMs) break;
    const victim = killEveryMs > 0 && Date.now() - lastKill > killEveryMs ? victimOf(pool, killEveryMs) : undefined;
    if (victim !== undefined) {
      workerCpu.sample([pool[victim]!.child.pid!]);
      pool[victim]!.child.kill("SIGKILL");
      const fresh = start();
      pool[victim] = fresh;
      spawned.push(fresh);
      kills += 1;
      lastKill = Date.now();
    }
  }
  const wallMs = Date.now() - started;
  await sample();
  const benchCpu = process.cpuUsage(cpuAtStart.bench);
  for (const worker of pool) worker.child.kill("SIGKILL");

  const open = await admin.query<{ id: string; status: string; attempts: number; jobs: string | null }>(
    `SELECT t.id, t.status, t.attempts,
       (SELECT string_agg(j.state::text || ' ' || j.retry_count, ', ') FROM ${schema}_boss.job j
        WHERE j.data->>'taskId' = t.id) AS jobs
     FROM ${schema}.tasks t WHERE t.status <> ALL($1)`,
    [ENDED],
  );
  const pending = (jobs: string | null) => /\b(created|retry|active)\b/.test(jobs ?? "");
  const lost = open.rows.filter((row) => !pending(row.jobs));
  const rows = Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.tasks`)).rows[0]!.n);
  const reasons = await admin.query<{ status: string; error: string; n: string }>(
    `SELECT status, error, count(*) AS n FROM ${schema}.tasks WHERE status IN ('failed', 'dead_letter') GROUP BY 1, 2`,
  );
  const deployTasks = await admin.query<{ id: string }>(
    `SELECT id FROM ${schema}.tasks WHERE status = 'completed' AND (spec->>'objective') LIKE '%deploy%'`,
  );
  const recovery = await readRecovery(admin, schema, queue.jobName, tasks);
  const effects = readEffects(
    effectLog,
    deployTasks.rows.map((row) => row.id),
  );
  for (const approver of approvers) await approver.stop();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  await admin.end();
  rmSync(effectLog, { force: true });
  return {
    ...settings,
    wallMs,
    states: { ...states },
    modelCalls: server.calls() - callsBefore,
    kills,
    approvals,
    reconciled,
    effects,
    lost: tasks - rows + lost.length,
    lostTasks: lost
      .slice(0, 5)
      .map((row) => `${row.id} ${row.status}, ${row.attempts} takes, jobs: ${row.jobs ?? "none"}`),
    unfinished: open.rows.length - lost.length,
    reasons: Object.fromEntries(reasons.rows.map((row) => [`${row.status}: ${row.error}`, Number(row.n)])),
    cpuSeconds: {
      workers: workerCpu.total() - cpuAtStart.workers,
      database: databaseCpu.total() - cpuAtStart.database,
      bench: (benchCpu.user + benchCpu.system) / 1e6,
    },
    load: { start: loadAtStart, end: loadavg()[0]! },
    boots: bootStats(spawned),
    recovery,
  };
}
