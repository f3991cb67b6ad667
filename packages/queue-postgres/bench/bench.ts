// `pnpm bench` in @x/queue-postgres: throughput of N worker processes over one PostgreSQL, then the
// same run with a worker SIGKILLed every few seconds. Loopback only, bounded, stops by itself.
//
// Model: a loopback Chat Completions server (real HTTP, real SSE, the official SDK in the workers)
// answering in ~50 ms per turn; each task is five turns (four tool calls, then the answer); 10 % of
// the tasks first ask for a gated `deploy`, park, and are approved by this process (not a worker).
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAIMockServer, type OpenAIMockReply, type RecordedRequest } from "@x/brain-openai/testing";
import pg from "pg";
import { createTaskQueue } from "../src/index";
import { queueSettings, TURNS } from "./settings";

const url = process.env.PG_URL;
if (!url) {
  console.log("queue-postgres bench: set PG_URL=postgres://… (a real PostgreSQL on loopback) to run it");
  process.exit(0);
}
const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
};
const TASKS = arg("tasks", 2_000);
const DEADLINE_MS = arg("deadline-s", 300) * 1_000;
const KILL_EVERY_MS = arg("kill-every-ms", 4_000);
const here = dirname(fileURLToPath(import.meta.url));

/** Four steps (a deploy first for a `deploy` task), then the answer; ~50 ms a turn over 5 events. */
function reply(request: RecordedRequest): OpenAIMockReply {
  const body = request.body as { messages: Array<{ role: string; content?: unknown }> };
  const results = body.messages.filter((m) => m.role === "tool").length;
  const deploy = JSON.stringify(body.messages.find((m) => m.role === "user")?.content ?? "").includes("deploy");
  const delivery = { delayMs: 10 };
  if (results >= TURNS - 1) return { ...delivery, text: ["All ", "steps ", "done."] };
  const name = deploy && results === 0 ? "deploy" : "step";
  return { ...delivery, toolCalls: [{ id: `call_${results + 1}`, name, arguments: { n: results + 1 } }] };
}

const server = await startOpenAIMockServer(reply);
const admin = new pg.Pool({ connectionString: url, max: 4 });

interface RunReport {
  workers: number;
  chaos: boolean;
  wallMs: number;
  states: Record<string, number>;
  modelCalls: number;
  kills: number;
  doubleExecuted: number;
  lost: number;
}

interface BenchWorker {
  child: ChildProcess;
  /** When it printed "ready" (its queue and worker started), or undefined while it boots. */
  readyAt?: number;
}

function startWorker(schema: string): BenchWorker {
  const child = spawn(
    process.execPath,
    ["--conditions=@x/source", "--import", "tsx", join(here, "bench-worker.ts"), url!, schema, server.baseUrl],
    { cwd: join(here, ".."), stdio: ["ignore", "pipe", "inherit"] },
  );
  const worker: BenchWorker = { child };
  child.stdout.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("ready")) worker.readyAt ??= Date.now();
  });
  return worker;
}

/** A worker that has been working for a while: killing one that is still booting measures nothing. */
function victimOf(pool: BenchWorker[]): number | undefined {
  const ready = pool.flatMap((w, i) => (w.readyAt !== undefined && Date.now() - w.readyAt > KILL_EVERY_MS ? [i] : []));
  return ready.length > 0 ? ready[Math.floor(Math.random() * ready.length)] : undefined;
}

async function runOnce(workers: number, chaos: boolean): Promise<RunReport> {
  const schema = `x_queue_bench_${workers}_${chaos ? "chaos" : "plain"}`;
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  const queue = createTaskQueue({ connectionString: url, schema, ...queueSettings });
  await queue.start();
  await admin.query(`CREATE TABLE ${schema}.effects (idempotency_key text, name text)`);
  const callsBefore = server.requests.length;
  for (let i = 0; i < TASKS; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, TASKS - i) }, (_, j) =>
        queue.enqueue(
          {
            objective: (i + j) % 10 === 0 ? `task ${i + j}: deploy, then the steps` : `task ${i + j}: the steps`,
            toolNames: ["step", "deploy"],
          },
          { owner: "bench" },
        ),
      ),
    );
  }
  const pool = Array.from({ length: workers }, () => startWorker(schema));
  // Throughput is timed from the moment every worker is up, not from process start-up.
  while (pool.some((w) => w.readyAt === undefined)) await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  let kills = 0;
  let lastKill = Date.now();
  const states: Record<string, number> = {};
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Approvals come from this process, as a person's would: any worker picks the resume up.
    const parked = await admin.query<{ id: string }>(`SELECT id FROM ${schema}.tasks WHERE status = 'parked'`);
    for (const { id } of parked.rows) await queue.approve(id, "bench", { decision: "approve" }).catch(() => undefined);
    const counts = await admin.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM ${schema}.tasks GROUP BY status`,
    );
    for (const key of Object.keys(states)) delete states[key];
    for (const row of counts.rows) states[row.status] = Number(row.n);
    const open = (states.queued ?? 0) + (states.running ?? 0) + (states.resuming ?? 0) + (states.parked ?? 0);
    if (open === 0 || Date.now() - started > DEADLINE_MS) break;
    const victim = chaos && Date.now() - lastKill > KILL_EVERY_MS ? victimOf(pool) : undefined;
    if (victim !== undefined) {
      pool[victim]!.child.kill("SIGKILL");
      pool[victim] = startWorker(schema);
      kills += 1;
      lastKill = Date.now();
    }
  }
  const wallMs = Date.now() - started;
  for (const worker of pool) worker.child.kill("SIGKILL");
  const doubled = await admin.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT idempotency_key FROM ${schema}.effects WHERE name LIKE 'deploy%'
       GROUP BY idempotency_key HAVING count(*) > 1) d`,
  );
  const visible =
    (states.completed ?? 0) + (states.failed ?? 0) + (states.dead_letter ?? 0) + (states.unknown_outcome ?? 0);
  await queue.stop();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  return {
    workers,
    chaos,
    wallMs,
    states: { ...states },
    modelCalls: server.requests.length - callsBefore,
    kills,
    doubleExecuted: Number(doubled.rows[0]!.n),
    lost: TASKS - visible,
  };
}

const reports: RunReport[] = [];
for (const workers of [1, 2, 4]) reports.push(await runOnce(workers, false));
reports.push(await runOnce(4, true));
await server.close();
await admin.end();

const base = reports[0]!;
const perSecond = (r: RunReport) => (TASKS / r.wallMs) * 1_000;
console.log(`\nqueue-postgres: ${TASKS} tasks × ${TURNS} turns (10 % park and are approved from another process),`);
console.log("loopback Chat Completions server ~50 ms/turn, 32 tasks in flight per worker process, one PostgreSQL\n");
console.log(
  "| run | workers | wall s | tasks/s | × 1 worker | completed | unknown outcome | dead letter | failed | lost | double-executed approved calls | SIGKILLs | model calls | extra calls from crashes |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of reports) {
  const ideal = TASKS * TURNS;
  console.log(
    `| ${r.chaos ? "SIGKILL every " + KILL_EVERY_MS / 1000 + " s" : "plain"} | ${r.workers} | ${(r.wallMs / 1000).toFixed(1)} | ${perSecond(r).toFixed(1)} | ${(perSecond(r) / perSecond(base)).toFixed(2)} | ${r.states.completed ?? 0} | ${r.states.unknown_outcome ?? 0} | ${r.states.dead_letter ?? 0} | ${r.states.failed ?? 0} | ${r.lost} | ${r.doubleExecuted} | ${r.kills} | ${r.modelCalls} | ${r.modelCalls - ideal} |`,
  );
}
