// What making a turn durable costs, by run length: a run of N turns (each a tool call with a 4 KB
// result) in this process, four ways — the runner alone; with the whole
// checkpoint written at every checkpoint, as workers did before checkpoint chains (one UPDATE of the
// task row with every message so far, signed over all of it, and each `turn` and `tool_result` event
// in a statement of its own); and with one chain link per checkpoint, as workers do now
// (`onCheckpointSegment` into `task_turns`, fenced by the lease, the events in the link's statement),
// for a tool with an effect (a link for the answer, one for its result) and a read-only one (its
// result rides with the next answer's link). Each on two brains: the scripted one in process (the
// runner's own floor), and the OpenAI brain against a loopback Chat Completions server in a child
// process (a runner turn as a deployment pays it: request, SSE stream, a fresh call id every turn).
// CPU is this process's plus the PostgreSQL backend's that took the writes, read around each run (the
// runs of the modes compared interleaved one by one); bytes are what was sent
// (the whole checkpoint) or stored (the chain's links and events).
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createOpenAIBrain } from "@x/brain-openai";
import { defineModel } from "@x/llm-types";
import { createMemoryParkLedger, createRunner, defineTool, type Runner, type ToolResultInfo } from "@x/runner";
import type { RunCheckpoint } from "@x/runner/backend";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { z } from "zod";
import { ensureSchema } from "../src/sql";
import { checkpointSink, toolResultEvent } from "../src/checkpoint-sink";
import type { TaskEvent } from "../src/task-events";
import { taskTurns } from "../src/task-turns";
import { threadCpuMs } from "./proc-cpu";
import { nextCall, turnObjective } from "./turn-script";

const KEY = "turn-cost-bench-key-0123456789abcdef";
// A page of text as a file read returns it: words in no repeating order, not one repeated byte
// (which PostgreSQL's compression of a stored link would make free).
const WORDS = ["const", "return", "value", "await", "function", "result", "=", "{", "}", "(", ")", "if", "turn", "of"];
let seed = 7;
const word = () => WORDS[(seed = (seed * 48_271) % 2_147_483_647) % WORDS.length]!;
const RESULT = Array.from({ length: 1_200 }, (_, i) => word() + (i % 12 === 11 ? "\n" : " "))
  .join("")
  .slice(0, 4_096);
const OWNER = "turn-cost-worker";
/** Tool turns each mode runs on each brain before the first measured cell. */
const WARMUP_TURNS = 1_000;
type Mode = "runner" | "whole" | "chain" | "readOnly";
/** The scripted brain in process, or the OpenAI brain over loopback HTTP. */
type Brain = "scripted" | "wire";

interface Cost {
  /** Turns that called a tool: the last turn of a run is its answer, which has nothing to make durable. */
  turns: number;
  cpuMs: number;
  /** The PostgreSQL backend's share of `cpuMs`. */
  dbMs: number;
  bytes: number;
}

/** What making a tool turn durable added, per turn: the median over the rounds. */
interface Durable {
  /** CPU over the runner alone's, each round against the runner's runs interleaved with its own. */
  ms: number;
  /** The PostgreSQL backend's share of `ms`. */
  dbMs: number;
  kb: number;
}

/** The modes measured on a brain. */
interface BrainCosts {
  /** The runner alone's CPU per tool turn, the median over the rounds. */
  runnerMs: number;
  chain: Durable;
  readOnly: Durable;
}

export interface TurnCostRow extends BrainCosts {
  length: number;
  runs: number;
  whole: Durable;
  /** The same modes with the OpenAI brain over loopback HTTP. */
  wire: BrainCosts;
}

// The fake keeps no copy of each call's context: the runner row is the runner's own CPU, not its bookkeeping.
const brain = createFauxBrain(
  ({ context }) => {
    const results = context.messages.filter((m) => m.role === "toolResult").length;
    const call = nextCall(context.messages.find((m) => m.role === "user")?.content, results);
    return call ? fauxToolCall(call.tool, { n: call.n }, { id: `${call.tool}-${call.n}` }) : fauxText("done");
  },
  { recordCalls: false },
);
const page = (name: string, readOnly: boolean) =>
  defineTool({
    name,
    description: `${name}s one page and returns it`,
    input: z.object({ n: z.number() }),
    readOnly,
    execute: async () => RESULT,
  });
const edit = page("edit", false);
const read = page("read", true);
const scripted = createRunner({
  brains: [brain],
  models: { main: fauxModel({ id: "main", contextWindow: 4_000_000, maxTokens: 1_000 }) },
  parkKey: KEY,
  parkLedger: createMemoryParkLedger(),
  tools: [edit, read],
});

/** The runner on the OpenAI brain against the model server at `baseUrl`. */
function wireRunner(baseUrl: string): Runner {
  const main = defineModel({
    id: "turn-cost-model",
    api: "openai-completions",
    provider: "loopback",
    baseUrl,
    contextWindow: 4_000_000,
    maxTokens: 1_000,
  });
  return createRunner({
    brains: [createOpenAIBrain({ apiKey: "bench" })],
    models: { main },
    parkKey: KEY,
    parkLedger: createMemoryParkLedger(),
    tools: [edit, read],
  });
}

/** The model server of the wire brain, in a child process; resolves with its base URL. */
async function startModelProcess(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const script = fileURLToPath(new URL("./turn-model-server.ts", import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, script], { stdio: ["ignore", "pipe", "inherit"] });
  const [first] = (await once(child.stdout, "data")) as [Buffer];
  return { child, baseUrl: first.toString().trim() };
}

/** The database side of one mode: a task row leased to this process, and the write each turn makes. */
async function writer(pool: pg.Pool, schema: string, mode: Mode, taskId: string) {
  await pool.query(
    `INSERT INTO ${schema}.tasks (id, owner, status, spec, lease_owner, lease_until)
     VALUES ($1, 'bench', 'running', '{}', $2, now() + interval '1 hour')`,
    [taskId, OWNER],
  );
  let bytes = 0;
  // Now: the worker's own sink (its bytes are read back from the database after the clock stops).
  const turns = taskTurns(pool, schema);
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
  const options = mode === "whole" ? { onCheckpoint } : mode === "runner" ? {} : { onCheckpointSegment };
  return { options, onToolResult: mode === "runner" ? undefined : onToolResult, bytes: () => bytes };
}

interface Bench {
  pool: pg.Pool;
  /** The pid of the pool's one backend. */
  backend: number;
  schema: string;
  runners: Record<Brain, Runner>;
}

/**
 * One cell per mode in `modes`, their runs interleaved one by one (the runner alone's, the chain's,
 * …, in an order that turns with each run) so a drift in the machine's speed — ±25 % from one
 * second to the next on this shared machine — falls on every mode alike; each run's CPU is read
 * before and after it.
 */
async function measure(
  { pool, backend, schema, runners }: Bench,
  brain: Brain,
  modes: readonly Mode[],
  length: number,
  runs: number,
): Promise<Record<Mode, Cost>> {
  const costs = {} as Record<Mode, Cost>;
  const tasks = {} as Record<Mode, string[]>;
  for (const mode of modes) {
    costs[mode] = { turns: 0, cpuMs: 0, dbMs: 0, bytes: 0 };
    tasks[mode] = [];
  }
  for (let i = 0; i < runs; i++) {
    // The order turns with each run: the garbage a run leaves is collected in a later run's window.
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(i + k) % modes.length]!;
      const taskId = `${brain}-${mode}-${length}-${i}-${Date.now()}`;
      tasks[mode].push(taskId);
      const w = await writer(pool, schema, mode, taskId);
      const hook = w.onToolResult ? { onToolResult: w.onToolResult } : {};
      const tool = mode === "readOnly" ? read : edit;
      const cpu0 = process.cpuUsage();
      const db0 = threadCpuMs(backend);
      const result = await runners[brain].runTask(
        { objective: turnObjective(tool.name, length), runId: taskId, maxTurns: length + 1, tools: [tool], ...hook },
        w.options,
      );
      const cpu = process.cpuUsage(cpu0);
      const dbMs = threadCpuMs(backend) - db0;
      // Every turn but the last must have read its page: a refused or failed call costs nothing to store.
      const failed = result.messages.some((m) => m.role === "toolResult" && m.isError);
      if (result.status !== "completed" || failed)
        throw new Error(`turn-cost bench: a run ended ${result.status}${failed ? " with a failed tool call" : ""}`);
      const cost = costs[mode];
      cost.turns += result.stats.turns - 1;
      cost.cpuMs += (cpu.user + cpu.system) / 1_000 + dbMs;
      cost.dbMs += dbMs;
      cost.bytes += w.bytes();
    }
  }
  for (const mode of modes)
    if (mode === "chain" || mode === "readOnly") costs[mode].bytes = await chainBytes(pool, schema, tasks[mode]);
  return costs;
}

/** What the chain's links and events of `tasks` hold, as JSON text. */
async function chainBytes(pool: pg.Pool, schema: string, tasks: readonly string[]): Promise<number> {
  const sum = (table: string, column: string) =>
    `(SELECT coalesce(sum(octet_length(${column}::text)), 0) FROM ${schema}.${table} WHERE task_id = ANY($1))`;
  const found = await pool.query<{ bytes: string }>(
    `SELECT ${sum("task_turns", "link")} + ${sum("task_events", "event")} AS bytes`,
    [tasks],
  );
  return Number(found.rows[0]!.bytes);
}

const perTurn = (c: Cost) => c.cpuMs / c.turns;

/** The middle value (the machine is shared; one noisy round moves nothing). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * What `cells` added over the runner alone: each round's cell against the runner's runs interleaved
 * with its own (a drift in load cancels), or against the runner's median when they ran apart.
 */
function durable(cells: Cost[], runner: Cost[], paired: boolean): Durable {
  const base = (i: number, of: (c: Cost) => number) => (paired ? of(runner[i]!) : median(runner.map((c) => of(c))));
  const dbPerTurn = (c: Cost) => c.dbMs / c.turns;
  return {
    ms: median(cells.map((c, i) => perTurn(c) - base(i, perTurn))),
    dbMs: median(cells.map((c, i) => dbPerTurn(c) - base(i, dbPerTurn))),
    kb: median(cells.map((c) => c.bytes / c.turns / 1024)),
  };
}

/**
 * Runs every length with the runner alone and with the chain, on both brains, interleaved round by round
 * so a drift in load hits them alike; then the whole checkpoint in a pass of its own. Its writes grow with the square
 * of a run (gigabytes at 500 turns), and the database's work on them afterwards would load the chain's
 * rounds if they came after it — and it is the reference the chain replaced, so it gets fewer runs.
 */
export async function measureTurnCost(url: string, lengths: readonly number[], turnsPerCell: number, rounds: number) {
  const schema = `x_turn_cost_${process.pid}`;
  // One connection, kept: its backend's CPU is the database's share of the writes.
  const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0 });
  await ensureSchema(pool, schema);
  const backend = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const model = await startModelProcess();
  const bench: Bench = { pool, backend, schema, runners: { scripted, wire: wireRunner(model.baseUrl) } };
  // The whole checkpoint and the wire (whose every turn sends the run so far) get fewer runs a cell.
  const runs = (length: number, mode: Mode, brain: Brain = "scripted") =>
    Math.max(1, Math.round(turnsPerCell / length / (mode === "whole" ? 4 : brain === "wire" ? 2 : 1)));
  const cells = new Map<string, Cost[]>();
  const cell = async (brain: Brain, length: number, modes: readonly Mode[]) => {
    const measured = await measure(bench, brain, modes, length, runs(length, modes[0]!, brain));
    for (const mode of modes) {
      const key = `${brain}:${length}:${mode}`;
      cells.set(key, [...(cells.get(key) ?? []), measured[mode]]);
    }
  };
  const brainModes = ["runner", "chain", "readOnly"] as const;
  try {
    // Warm the JIT, the connection and the HTTP agent: every mode on both brains, a thousand tool turns
    // each in runs of five turns, four of them tool turns (compiled code settles only after about
    // that many; see the agent loop bench's README); the whole checkpoint's on the scripted brain.
    for (const brain of ["scripted", "wire"] as const) await measure(bench, brain, brainModes, 5, WARMUP_TURNS / 4);
    await measure(bench, "scripted", ["whole"], 5, WARMUP_TURNS / 4);
    for (let round = 0; round < rounds; round++) {
      for (const length of lengths)
        for (const brain of ["scripted", "wire"] as const) await cell(brain, length, brainModes);
    }
    // The whole checkpoint's reference, three rounds at most: its 500-turn run alone takes a minute.
    for (let round = 0; round < Math.min(rounds, 3); round++)
      for (const length of lengths) await cell("scripted", length, ["whole"]);
  } finally {
    model.child.kill();
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  }
  const at = (brain: Brain, length: number, mode: Mode) => cells.get(`${brain}:${length}:${mode}`)!;
  const costs = (brain: Brain, length: number): BrainCosts => {
    const runner = at(brain, length, "runner");
    return {
      runnerMs: median(runner.map(perTurn)),
      chain: durable(at(brain, length, "chain"), runner, true),
      readOnly: durable(at(brain, length, "readOnly"), runner, true),
    };
  };
  return lengths.map((length): TurnCostRow => ({
    length,
    runs: runs(length, "chain"),
    ...costs("scripted", length),
    whole: durable(at("scripted", length, "whole"), at("scripted", length, "runner"), false),
    wire: costs("wire", length),
  }));
}

export function printTurnCost(rows: readonly TurnCostRow[], rounds: number): void {
  const ms = (n: number) => n.toFixed(3);
  const ratio = (d: Durable, brain: BrainCosts) => (d.ms / brain.runnerMs).toFixed(2);
  const cell = (cells: Array<string | number>) => console.log(`| ${cells.join(" | ")} |`);
  console.log(
    "\nqueue-postgres: what a durable turn costs, by run length (scripted brain in process, a 4 KB tool result a turn;",
  );
  console.log(
    "CPU = this process + the PostgreSQL backend that took the writes, read around each run; ms per tool turn; " +
      "durable = over the runner alone, their runs interleaved one by one, " +
      `the median of ${rounds} rounds; load average ${loadavg()[0]!.toFixed(2)})\n`,
  );
  cell([
    "turns per run",
    "runs",
    "runner ms/turn",
    "whole checkpoint: durable ms/turn",
    "KB/turn",
    "chain: durable ms/turn",
    "of which PostgreSQL",
    "KB/turn",
    "chain durable ÷ runner",
    "read-only tool, chain: durable ms/turn",
    "KB/turn",
  ]);
  cell(["---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
  for (const r of rows) {
    cell([
      r.length,
      r.runs,
      ms(r.runnerMs),
      ms(r.whole.ms),
      r.whole.kb.toFixed(1),
      ms(r.chain.ms),
      ms(r.chain.dbMs),
      r.chain.kb.toFixed(1),
      ratio(r.chain, r),
      ms(r.readOnly.ms),
      r.readOnly.kb.toFixed(1),
    ]);
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last && first !== last) {
    const spread = (c: (r: TurnCostRow) => number) => (c(last) / c(first)).toFixed(2);
    console.log(
      `\n${last.length} turns against ${first.length}: durable ms/turn × ${spread((r) => r.chain.ms)} with the chain ` +
        `(× ${spread((r) => r.readOnly.ms)} for a read-only tool), × ${spread((r) => r.whole.ms)} ` +
        `with the whole checkpoint; KB/turn × ${spread((r) => r.chain.kb)} with the chain, ` +
        `× ${spread((r) => r.whole.kb)} with the whole checkpoint.`,
    );
  }
  console.log(
    "\nThe same turns as a deployment pays them: the OpenAI brain against a loopback Chat Completions server " +
      "in a child process (its CPU not counted), a fresh call id every turn, the whole history sent every turn.\n",
  );
  cell([
    "turns per run",
    "runner ms/turn",
    "chain: durable ms/turn",
    "of which PostgreSQL",
    "chain durable ÷ runner",
    "read-only tool, chain: durable ms/turn",
    "read-only durable ÷ runner",
  ]);
  cell(["---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
  for (const { length, wire } of rows) {
    cell([
      length,
      ms(wire.runnerMs),
      ms(wire.chain.ms),
      ms(wire.chain.dbMs),
      ratio(wire.chain, wire),
      ms(wire.readOnly.ms),
      ratio(wire.readOnly, wire),
    ]);
  }
}
