// `pnpm bench` in @x/queue-postgres: throughput of N worker processes over one PostgreSQL, then the
// same run with a worker SIGKILLed every few seconds. Loopback only, bounded, stops by itself.
//
// Model: a loopback Chat Completions server (real HTTP, real SSE, the official SDK in the workers)
// answering each turn after `--turn-ms` (50); each task is five turns (four tool calls, then the
// answer); 10 % of the tasks first ask for a gated `deploy`, park, and are approved by this process
// (two approvers racing), never by a worker. Executions are counted from an effect log the tools
// append to, outside the queue's tables.
import { cpus, loadavg } from "node:os";
import { startBenchModelServer } from "./model-server";
import { runOnce, type RunReport } from "./run-once";
import { TURNS, WORKER_CONCURRENCY } from "./settings";
import { measureTurnCost, printTurnCost } from "./turn-cost";
import { bundleWorker } from "./worker-bundle";

const url = process.env.PG_URL;
if (!url) {
  console.log("queue-postgres bench: set PG_URL=postgres://… (a real PostgreSQL on loopback) to run it");
  process.exit(0);
}
const flag = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const numbers = (text: string) => text.split(",").filter(Boolean).map(Number);
const TASKS = Number(flag("tasks", "2000"));
const DEADLINE_MS = Number(flag("deadline-s", "300")) * 1_000;
const KILL_EVERY_MS = Number(flag("kill-every-ms", "4000"));
const TURN_MS = Number(flag("turn-ms", "50"));
const WORKERS = numbers(flag("workers", "1,2,4"));
/** Worker processes of the run with kills; 0 skips it. */
const KILL_WORKERS = Number(flag("kill-workers", "4"));

/** Run lengths of the durable-turn table (`--turn-lengths=`; empty skips it). */
const TURN_LENGTHS = numbers(flag("turn-lengths", "5,50,500"));
/** Rounds of the durable-turn table: each mode's figure is the median over them. */
const TURN_ROUNDS = Number(flag("turn-rounds", "5"));
if (TURN_LENGTHS.length > 0)
  printTurnCost(await measureTurnCost(url, TURN_LENGTHS, Number(flag("turn-cells", "1000")), TURN_ROUNDS), TURN_ROUNDS);

const server = await startBenchModelServer(TURN_MS);
const bundle = await bundleWorker();
const reports: RunReport[] = [];
const base = { url, server, tasks: TASKS, deadlineMs: DEADLINE_MS, workerScript: bundle.path };
try {
  for (const workers of WORKERS) reports.push(await runOnce({ ...base, workers, killEveryMs: 0 }));
  if (KILL_WORKERS > 0) reports.push(await runOnce({ ...base, workers: KILL_WORKERS, killEveryMs: KILL_EVERY_MS }));
} finally {
  bundle.remove();
  await server.close();
}

const perSecond = (r: RunReport) => (r.tasks / r.wallMs) * 1_000;
const single = reports.find((r) => r.workers === 1 && r.killEveryMs === 0) ?? reports[0]!;
const runName = (r: RunReport) => (r.killEveryMs > 0 ? `SIGKILL every ${r.killEveryMs / 1000} s` : "plain");
const row = (cells: Array<string | number>) => console.log(`| ${cells.join(" | ")} |`);
const s1 = (n: number) => n.toFixed(1);

console.log(
  `\nqueue-postgres: ${TASKS} tasks × ${TURNS} turns, 10 % park for ` +
    `approval (approved from the bench process, two approvers racing);`,
);
console.log(
  `loopback Chat Completions server answering each turn after ${TURN_MS} ms; ${WORKER_CONCURRENCY} ` +
    `tasks in flight per worker process; one PostgreSQL; ${cpus().length} cores.\n`,
);
row([
  "run",
  "workers",
  "wall s",
  "tasks/s",
  "× 1 worker",
  "CPU s workers",
  "CPU s PostgreSQL",
  "CPU s bench",
  "CPU ms / task",
  "load avg (start → end)",
]);
row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
for (const r of reports) {
  const cpu = r.cpuSeconds.workers + r.cpuSeconds.database + r.cpuSeconds.bench;
  row([
    runName(r),
    r.workers,
    s1(r.wallMs / 1000),
    s1(perSecond(r)),
    (perSecond(r) / perSecond(single)).toFixed(2),
    s1(r.cpuSeconds.workers),
    s1(r.cpuSeconds.database),
    s1(r.cpuSeconds.bench),
    s1((cpu * 1000) / r.tasks),
    `${s1(r.load.start)} → ${s1(r.load.end)}`,
  ]);
}
console.log("");
row([
  "run",
  "completed",
  "failed",
  "dead letter",
  "unknown outcome (happened / not run)",
  "lost",
  "unfinished",
  "approved calls run twice",
  "approved calls missing",
  "approvals won / refused",
  "SIGKILLs",
  "model calls",
  "extra model calls",
  "steps re-run (same key)",
]);
row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
for (const r of reports) {
  const st = (name: string) => r.states[name] ?? 0;
  row([
    runName(r),
    st("completed"),
    st("failed"),
    st("dead_letter"),
    `${r.reconciled.happened + r.reconciled.notRun} (${r.reconciled.happened} / ${r.reconciled.notRun})`,
    r.lost,
    r.unfinished,
    r.effects.doubleExecutedApproved,
    r.effects.missingApproved,
    `${r.approvals.won} / ${r.approvals.refused}`,
    r.kills,
    r.modelCalls,
    r.modelCalls - r.tasks * TURNS,
    `${r.effects.stepReruns} (${r.effects.stepRerunsKeptKey})`,
  ]);
}
console.log("");
row([
  "run",
  "worker starts",
  "median start ms",
  "CPU s starting",
  "takes after a holder stopped",
  "idle before retake p50 / p90 s",
  "pg-boss jobs / task",
]);
row(["---", "---:", "---:", "---:", "---:", "---:", "---:"]);
for (const r of reports) {
  row([
    runName(r),
    r.boots.count,
    r.boots.medianMs,
    s1(r.boots.cpuSeconds),
    r.recovery.retakes,
    `${s1(r.recovery.idleMs.p50 / 1000)} / ${s1(r.recovery.idleMs.p90 / 1000)}`,
    r.recovery.jobsPerTask.toFixed(2),
  ]);
}
for (const r of reports) {
  for (const [reason, n] of Object.entries(r.reasons))
    console.log(`${runName(r)}, ${r.workers} workers: ${n} × ${reason}`);
}
console.log(`load average now ${loadavg().map(s1).join(" ")} (other processes share this machine)`);

const broken = reports.filter(
  (r) => r.lost + r.unfinished + r.effects.doubleExecutedApproved + r.effects.missingApproved > 0,
);
if (broken.length > 0) {
  console.log(`FAILED: ${broken.map(runName).join(", ")} lost, left unfinished or double-ran tasks (see the table)`);
  for (const r of broken) for (const task of r.lostTasks) console.log(`lost: ${task}`);
  process.exitCode = 1;
}
