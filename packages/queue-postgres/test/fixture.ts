// What the tests and the child worker process share: a scripted model that answers from the request
// alone (so any process gives the same reply to the same request), tools that record their effects in
// PostgreSQL, and the queue settings that make crash recovery quick enough to test.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import { defineTool, type Tool } from "@x/runner";
import type pg from "pg";
import { z } from "zod";
import { createTaskQueue, type TaskQueue, type WorkerOptions } from "../src/index";

export const PARK_KEY = "queue-tests-shared-park-key-0123";
export const STEPS = 4;

/** Five turns: `step` 1..4, then the answer; a `deploy` objective asks for one gated deploy first. */
export const scripted: FauxResponder = ({ context }) => {
  const results = context.messages.filter((m) => m.role === "toolResult").length;
  const objective = context.messages.find((m) => m.role === "user");
  const deploy = typeof objective?.content === "string" && objective.content.includes("deploy");
  if (deploy)
    return results === 0 ? fauxToolCall("deploy", { target: "prod" }, { id: "deploy-1" }) : fauxText("deployed");
  return results < STEPS
    ? fauxToolCall("step", { n: results + 1 }, { id: `step-${results + 1}` })
    : fauxText(`done after ${STEPS} steps`);
};

/** The scripted model; `calls` gets, per model call, how many tool results the request carried. */
export function recordingBrain(calls: number[] = []) {
  return createFauxBrain((ctx) => {
    calls.push(ctx.context.messages.filter((m) => m.role === "toolResult").length);
    return scripted(ctx);
  });
}

export interface ToolHooks {
  /** Called after the effect is recorded, before the tool returns (a child process hangs here). */
  after?: (name: string, n: number) => Promise<void>;
}

export function tools(db: pg.Pool, schema: string, hooks: ToolHooks = {}): Tool[] {
  const record = async (key: string, name: string) =>
    db.query(`INSERT INTO ${schema}.effects (idempotency_key, name, pid) VALUES ($1, $2, $3)`, [
      key,
      name,
      process.pid,
    ]);
  return [
    defineTool({
      name: "step",
      description: "does one step",
      input: z.object({ n: z.number() }),
      execute: async ({ n }, ctx) => {
        await record(ctx.idempotencyKey, `step ${n}`);
        await hooks.after?.("step", n);
        return `step ${n} done`;
      },
    }),
    defineTool({
      name: "deploy",
      description: "deploys",
      input: z.object({ target: z.string() }),
      permission: "ask",
      execute: async ({ target }, ctx) => {
        await record(ctx.idempotencyKey, `deploy ${target}`);
        await hooks.after?.("deploy", 0);
        return `deployed ${target}`;
      },
    }),
  ];
}

export const QUICK = { jobExpireSeconds: 2, maintenanceIntervalSeconds: 1, maxAttempts: 3 };
export const LEASE_MS = 900;

export function openQueue(connectionString: string, schema: string): TaskQueue {
  return createTaskQueue({ connectionString, schema, ...QUICK });
}

export async function createEffectsTable(db: pg.Pool, schema: string) {
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.effects (idempotency_key text, name text, pid int, at timestamptz DEFAULT now())`,
  );
}

export function workerOptions(queue: TaskQueue, toolList: Tool[], brain = recordingBrain()): WorkerOptions {
  return {
    queue,
    runner: { brains: [brain], models: { main: fauxModel({ id: "main" }) }, parkKey: PARK_KEY },
    tools: toolList,
    leaseMs: LEASE_MS,
    pollMs: 50,
    concurrency: 4,
  };
}
