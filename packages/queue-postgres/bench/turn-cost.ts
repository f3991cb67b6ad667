// What making a turn durable costs, by run length: a run of N turns (each a tool call with a 4 KB
// result) in this process on the scripted brain, three ways — the runner alone; with the whole
// checkpoint written at every checkpoint, as workers did before checkpoint chains (one UPDATE of the
// task row with every message so far, signed over all of it, and each `turn` and `tool_result` event
// in a statement of its own); and with one chain link per checkpoint, as workers do now
// (`onCheckpointSegment` into `task_turns`, fenced by the lease, the events in the link's statement).
// CPU is this process's plus the PostgreSQL backend's that took the writes; bytes are what was sent.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createMemoryParkLedger, createRunner, defineTool, type ToolResultInfo } from "@x/runner";
import type { RunCheckpoint } from "@x/runner/backend";
import { loadavg } from "node:os";
import pg from "pg";
import { z } from "zod";
import { ensureSchema } from "../src/sql";
import { checkpointSink, toolResultEvent } from "../src/checkpoint-sink";
import type { TaskEvent } from "../src/task-events";
import { taskTurns, type TaskTurns } from "../src/task-turns";
import { processCpuSeconds } from "./proc-cpu";

const KEY = "turn-cost-bench-key-0123456789abcdef";
const RESULT = "x".repeat(4_096);
const OWNER = "turn-cost-worker";
type Mode = "runner" | "whole" | "chain";

interface Cost {
  /** Turns that called a tool: the last turn of a run is its answer, which has nothing to make durable. */
  turns: number;
  cpuMs: number;
  bytes: number;
}

export interface TurnCostRow {
  length: number;
  runs: number;
  runner: Cost;
  whole: Cost;
  chain: Cost;
}

// The fake keeps no copy of each call's context: the runner row is the runner's own CPU, not its bookkeeping.
const brain = createFauxBrain(
  ({ context }) => {
    const results = context.messages.filter((m) => m.role === "toolResult").length;
    const objective = context.messages.find((m) => m.role === "user")?.content;
    const length = Number((typeof objective === "string" ? objective : "").split(" ")[1]);
    return results < length - 1
      ? fauxToolCall("read", { n: results + 1 }, { id: `read-${results + 1}` })
      : fauxText("done");
  },
  { recordCalls: false },
);
const read = defineTool({
  name: "read",
  description: "reads one page",
  input: z.object({ n: z.number() }),
  execute: async () => RESULT,
});
const runner = createRunner({
  brains: [brain],
  models: { main: fauxModel({ id: "main", contextWindow: 4_000_000, maxTokens: 1_000 }) },
  parkKey: KEY,
  parkLedger: createMemoryParkLedger(),
  tools: [read],
});

/** The database side of one mode: a task row leased to this process, and the write each turn makes. */
async function writer(pool: pg.Pool, schema: string, mode: Mode, taskId: string) {
  await pool.query(
    `INSERT INTO ${schema}.tasks (id, owner, status, spec, lease_owner, lease_until)
     VALUES ($1, 'bench', 'running', '{}', $2, now() + interval '1 hour')`,
    [taskId, OWNER],
  );
  let bytes = 0;
  const stored = taskTurns(pool, schema);
  // Now: the worker's own sink, its bytes counted as they go to the database.
  const turns: TaskTurns = {
    ...stored,
    append: (id, worker, link, events = []) => {
      bytes += JSON.stringify(link).length + JSON.stringify(events).length;
      return stored.append(id, worker, link, events);
    },
  };
  const unsaid: TaskEvent[] = [];
  const onCheckpointSegment = checkpointSink(turns, taskId, OWNER, 0, unsaid);
  // Before: the whole checkpoint, then each event in a statement of its own (`turn` once per turn).
  let toldTurns = 0;
  const event = async (value: TaskEvent) => {
    const json = JSON.stringify(value);
    bytes += json.length;
    await pool.query(
      `INSERT INTO ${schema}.task_events (task_id, event)
       SELECT id, $2 FROM ${schema}.tasks WHERE id = $1 AND lease_owner = $3 FOR SHARE`,
      [taskId, json, OWNER],
    );
  };
  const onCheckpoint = async (checkpoint: RunCheckpoint) => {
    const json = JSON.stringify(checkpoint);
    bytes += json.length;
    await pool.query(
      `UPDATE ${schema}.tasks SET checkpoint = $3, attempts = 1, updated_at = now() WHERE id = $1 AND lease_owner = $2`,
      [taskId, OWNER, json],
    );
    const turn = checkpoint.state.stats.turns;
    if (turn > toldTurns) await event({ type: "turn", turns: turn });
    toldTurns = Math.max(toldTurns, turn);
  };
  const onToolResult = (info: ToolResultInfo) =>
    mode === "whole" ? event(toolResultEvent(info)) : (unsaid.push(toolResultEvent(info)), Promise.resolve());
  const options = mode === "whole" ? { onCheckpoint } : mode === "chain" ? { onCheckpointSegment } : {};
  return { options, onToolResult: mode === "runner" ? undefined : onToolResult, bytes: () => bytes };
}

async function measure(pool: pg.Pool, backend: number, schema: string, mode: Mode, length: number, runs: number) {
  const cpu0 = process.cpuUsage();
  const db0 = processCpuSeconds(backend) ?? 0;
  let turns = 0;
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const taskId = `${mode}-${length}-${i}-${Date.now()}`;
    const w = await writer(pool, schema, mode, taskId);
    const hook = w.onToolResult ? { onToolResult: w.onToolResult } : {};
    const result = await runner.runTask(
      { objective: `read ${length} pages`, runId: taskId, maxTurns: length + 1, ...hook },
      w.options,
    );
    if (result.status !== "completed") throw new Error(`turn-cost bench: a run ended ${result.status}`);
    turns += result.stats.turns - 1;
    bytes += w.bytes();
  }
  const cpu = process.cpuUsage(cpu0);
  const dbMs = ((processCpuSeconds(backend) ?? 0) - db0) * 1_000;
  return { turns, cpuMs: (cpu.user + cpu.system) / 1_000 + dbMs, bytes };
}

/** Per turn: the median cell of `rounds` (the machine is shared; one noisy round moves nothing). */
function median(cells: Cost[]): Cost {
  const sorted = [...cells].sort((a, b) => a.cpuMs / a.turns - b.cpuMs / b.turns);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs every length with every mode, interleaved round by round so a drift in load hits all three. */
export async function measureTurnCost(url: string, lengths: readonly number[], turnsPerCell: number, rounds = 3) {
  const schema = `x_turn_cost_${process.pid}`;
  // One connection, kept: its backend's CPU is the database's share of the writes.
  const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0 });
  await ensureSchema(pool, schema);
  const backend = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const modes: Mode[] = ["runner", "whole", "chain"];
  const cells = new Map<string, Cost[]>();
  try {
    await measure(pool, backend, schema, "chain", 20, 3); // warm the JIT and the connection
    for (let round = 0; round < rounds; round++) {
      for (const length of lengths) {
        const runs = Math.max(1, Math.round(turnsPerCell / length));
        for (const mode of modes) {
          const key = `${length}:${mode}`;
          cells.set(key, [...(cells.get(key) ?? []), await measure(pool, backend, schema, mode, length, runs)]);
        }
      }
    }
  } finally {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  }
  return lengths.map((length): TurnCostRow => {
    const [runner, whole, chain] = modes.map((mode) => median(cells.get(`${length}:${mode}`)!));
    return {
      length,
      runs: Math.max(1, Math.round(turnsPerCell / length)),
      runner: runner!,
      whole: whole!,
      chain: chain!,
    };
  });
}

export function printTurnCost(rows: readonly TurnCostRow[]): void {
  const perTurn = (c: Cost) => c.cpuMs / c.turns;
  const overhead = (c: Cost, base: Cost) => perTurn(c) - perTurn(base);
  const cell = (cells: Array<string | number>) => console.log(`| ${cells.join(" | ")} |`);
  console.log(
    "\nqueue-postgres: what a durable turn costs, by run length (scripted brain in process, a 4 KB tool result a turn;",
  );
  console.log(
    "CPU = this process + the PostgreSQL backend that took the writes; ms per tool turn, the median of three rounds; " +
      `load average ${loadavg()[0]!.toFixed(2)})\n`,
  );
  cell([
    "turns per run",
    "runs",
    "runner ms/turn",
    "whole checkpoint: durable ms/turn",
    "KB/turn",
    "chain: durable ms/turn",
    "KB/turn",
    "chain durable ÷ runner",
  ]);
  cell(["---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
  for (const r of rows) {
    cell([
      r.length,
      r.runs,
      perTurn(r.runner).toFixed(3),
      overhead(r.whole, r.runner).toFixed(3),
      (r.whole.bytes / r.whole.turns / 1024).toFixed(1),
      overhead(r.chain, r.runner).toFixed(3),
      (r.chain.bytes / r.chain.turns / 1024).toFixed(1),
      (overhead(r.chain, r.runner) / perTurn(r.runner)).toFixed(2),
    ]);
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last && first !== last) {
    const spread = (c: (r: TurnCostRow) => number) => (c(last) / c(first)).toFixed(2);
    console.log(
      `\n${last.length} turns against ${first.length}: durable ms/turn × ` +
        `${spread((r) => overhead(r.chain, r.runner))} with the chain, ` +
        `× ${spread((r) => overhead(r.whole, r.runner))} ` +
        `with the whole checkpoint; KB/turn × ${spread((r) => r.chain.bytes / r.chain.turns)} with the chain, ` +
        `× ${spread((r) => r.whole.bytes / r.whole.turns)} with the whole checkpoint.`,
    );
  }
}
