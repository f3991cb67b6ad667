// The history/tools scaling table: our runner in-process (the faux brain, which records nothing)
// with H prior exchanges and T tools, CPU per turn against H = 0, T = 1. Run by main.ts in its own
// process (`node --import tsx src/scaling.ts`), so the peer rows' heaps do not weigh on it.
import { createFauxBrain, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import { defineCatalog, type Message } from "@x/llm-types";
import { createRunner, defineTool, type Tool } from "@x/runner";
import { z } from "zod";
import {
  FINAL_TEXT,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TURNS,
  keyFor,
  lookup,
  objectiveFor,
} from "./workload";

const numbers = (value: string | undefined, fallback: number[]) => (value ? value.split(",").map(Number) : fallback);
/** `X_BENCH_SCALING_HISTORY=800 X_BENCH_SCALING_TOOLS=100` measures one cell (e.g. to profile it). */
const catalog = defineCatalog({
  bench: {
    id: "bench",
    api: "faux",
    provider: "faux",
    baseUrl: "faux://local",
    reasoning: false,
    contextWindow: 10_000_000,
    maxTokens: 4096,
  },
});
const HISTORIES = numbers(process.env.X_BENCH_SCALING_HISTORY, [0, 200, 800]);
const TOOL_COUNTS = numbers(process.env.X_BENCH_SCALING_TOOLS, [1, 100]);
/** Tasks per measured batch, and batches per cell. */
const BATCH = 10;
const ROUNDS = Number(process.env.X_BENCH_SCALING_ROUNDS ?? 300);

/** The turn is the count of tool results since the objective: read from the end, so the brain's own cost stays flat. */
function responder({ context }: FauxRequestContext) {
  let results = 0;
  for (let i = context.messages.length - 1; i >= 0 && context.messages[i]!.role !== "user"; i--)
    if (context.messages[i]!.role === "toolResult") results++;
  const k = results + 1;
  const usage = { input: 120 + 40 * k, output: 12 };
  return k < TURNS
    ? fauxToolCall(TOOL_NAME, { key: keyFor(k) }, { id: `call_${k}`, usage })
    : fauxText(FINAL_TEXT, { usage });
}

/**
 * H exchanges as a host holds them: each one the messages a run returned (its objective and the
 * answer), appended to the history the next run was given.
 */
async function history(exchanges: number): Promise<Message[]> {
  const runner = createRunner({
    brains: {
      faux: createFauxBrain(
        (ctx) => fauxText(`Answer ${ctx.callIndex}: key ${ctx.callIndex} holds value-of-k${ctx.callIndex}.`),
        { recordCalls: false },
      ),
    },
    models: catalog,
  });
  const out: Message[] = [];
  for (let i = 0; i < exchanges; i++) {
    const r = await runner.runTask({
      objective: `earlier question ${i}: what is stored under key ${i}?`,
      model: "bench",
      history: out,
    });
    out.push(...r.messages);
  }
  return out;
}

function tools(count: number): Tool[] {
  const list: Tool[] = [
    defineTool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      input: z.object({ key: z.string() }),
      execute: ({ key }) => lookup(key),
    }),
  ];
  for (let i = 1; i < count; i++)
    list.push(
      defineTool({
        name: `extra_${i}`,
        description: `An unused tool number ${i} with a few parameters.`,
        input: z.object({ path: z.string(), limit: z.number().int().optional(), mode: z.enum(["a", "b"]) }),
        execute: () => "unused",
      }),
    );
  return list;
}

/** One cell's runner, history and tool list, with a pass function that runs `tasks` tasks. */
async function cell(exchanges: number, toolCount: number) {
  const runner = createRunner({
    // The responder keeps nothing of the context: the brain borrows it, as the real brains do.
    brains: { faux: createFauxBrain(responder, { recordCalls: false, borrowsContext: true }) },
    models: catalog,
  });
  const prior = await history(exchanges);
  const list = tools(toolCount);
  const pass = async (tasks: number) => {
    for (let i = 0; i < tasks; i++) {
      const r = await runner.runTask({
        objective: objectiveFor(i),
        model: "bench",
        systemPrompt: SYSTEM_PROMPT,
        tools: list,
        history: prior,
        maxTurns: TURNS + 1,
      });
      if (r.status !== "completed") throw new Error(`scaling: ${r.status} ${r.terminal.code}: ${r.terminal.message}`);
    }
  };
  await pass(100);
  return { exchanges, tools: toolCount, pass, cpu: Infinity };
}

/**
 * The cells interleaved in one process, a batch of BATCH tasks at a time in rotating order, each
 * cell's CPU summed over all its batches. This machine's speed drifts by ±25 % from one second to
 * the next (the same fixed loop took 0.70–1.19 s), which moved a cell measured on its own — even the
 * best of many passes, even in a fresh process — by up to 1.8×; batches a few milliseconds apart
 * see the same speed, so the ratios hold. One process also gives every cell the same compiled code,
 * polymorphic over all of them as a host's mix of tasks would make it. No forced collection: a
 * collection's helper threads go on after `gc()` returns, into the next batch's CPU.
 */
async function measureInterleaved(): Promise<Array<{ exchanges: number; tools: number; cpu: number }>> {
  const cells = [];
  for (const exchanges of HISTORIES) for (const toolCount of TOOL_COUNTS) cells.push(await cell(exchanges, toolCount));
  const spent = cells.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < cells.length; k++) {
      const i = (round + k) % cells.length;
      const before = process.cpuUsage();
      await cells[i]!.pass(BATCH);
      const used = process.cpuUsage(before);
      spent[i]! += (used.user + used.system) / 1000;
    }
  }
  return cells.map((c, i) => ({ exchanges: c.exchanges, tools: c.tools, cpu: spent[i]! / (ROUNDS * BATCH * TURNS) }));
}

const cells = await measureInterleaved();
const base = cells[0]!.cpu;
const lines = [
  "### History and tools scaling (ours, in-process, c=1, CPU ms per turn; " +
    `the cells interleaved, ${ROUNDS} batches of ${BATCH} tasks each)`,
  "",
  "| history exchanges | tools | CPU ms/turn | vs 0 exchanges, 1 tool |",
  "|---:|---:|---:|---:|",
  ...cells.map((c) => `| ${c.exchanges} | ${c.tools} | ${c.cpu.toFixed(4)} | ${(c.cpu / base).toFixed(2)}× |`),
  "",
  "Goal: every cell within 1.05× of the first.",
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
