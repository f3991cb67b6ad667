// What the tests and the child worker process share: a scripted model that answers from the request
// alone (so any process gives the same reply to the same request), tools that record their effects in
// PostgreSQL, and the queue settings that make crash recovery quick enough to test.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import { createOpenAIBrain } from "@x/brain-openai";
import { defineModel, type Model } from "@x/llm-types";
import { defineTool, type Tool } from "@x/runner";
import type pg from "pg";
import { z } from "zod";
import { createTaskQueue, type TaskQueue, type TaskQueueOptions, type WorkerOptions } from "../src/index";

export const PARK_KEY = "queue-tests-shared-park-key-0123";
export const STEPS = 4;

/** What the scripted model does next, from the objective and the tool results the request carries. */
export function nextMove(objective: string, results: number): { tool: string; n: number } | { text: string } {
  if (objective.includes("deploy")) return results === 0 ? { tool: "deploy", n: 0 } : { text: "deployed" };
  if (objective.includes("look")) return results < STEPS ? { tool: "look", n: results + 1 } : { text: "seen it all" };
  if (objective.includes("put")) return results < STEPS ? { tool: "put", n: results + 1 } : { text: "all put" };
  return results < STEPS ? { tool: "step", n: results + 1 } : { text: `done after ${STEPS} steps` };
}

/**
 * Five turns: `step` 1..4, then the answer; a `look` objective looks (read-only) instead of stepping,
 * a `put` objective puts (idempotent); a `deploy` objective asks for one gated deploy first.
 */
export const scripted: FauxResponder = ({ context }) => {
  const results = context.messages.filter((m) => m.role === "toolResult").length;
  const objective = context.messages.find((m) => m.role === "user");
  const move = nextMove(typeof objective?.content === "string" ? objective.content : "", results);
  if ("text" in move) return fauxText(move.text);
  return fauxToolCall(move.tool, move.tool === "deploy" ? { target: "prod" } : { n: move.n }, { id: callId(move) });
};

/** The tool call id the script gives a move: `deploy-1`, `step-1` … (the same in every process). */
export const callId = (move: { tool: string; n: number }) => `${move.tool}-${move.tool === "deploy" ? 1 : move.n}`;

/** The scripted model; `calls` gets, per model call, how many tool results the request carried. */
export function recordingBrain(calls: number[] = []) {
  return createFauxBrain((ctx) => {
    calls.push(ctx.context.messages.filter((m) => m.role === "toolResult").length);
    return scripted(ctx);
  });
}

/** A Chat Completions model on a loopback server (the test's), for the wire-level tests. */
export function loopbackModel(baseUrl: string): Model {
  return defineModel({
    id: "loopback-model",
    api: "openai-completions",
    provider: "loopback",
    baseUrl,
    contextWindow: 128_000,
    maxTokens: 1_000,
  });
}

export interface ToolHooks {
  /** Called before the effect is recorded (a child process hangs here: the call never took effect). */
  before?: (name: string, n: number) => Promise<void>;
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
        await hooks.before?.("step", n);
        await record(ctx.idempotencyKey, `step ${n}`);
        await hooks.after?.("step", n);
        return `step ${n} done`;
      },
    }),
    defineTool({
      name: "look",
      description: "looks at one thing; changes nothing",
      input: z.object({ n: z.number() }),
      readOnly: true,
      execute: async ({ n }, ctx) => {
        // Recorded like an effect, so the tests can count how often it ran.
        await record(ctx.idempotencyKey, `look ${n}`);
        return `look ${n} seen`;
      },
    }),
    defineTool({
      name: "put",
      description: "puts one thing by its key: the same call again changes nothing more",
      input: z.object({ n: z.number() }),
      idempotent: true,
      execute: async ({ n }, ctx) => {
        // Every run recorded, so the tests can count them; the system it writes to keeps one per key.
        await record(ctx.idempotencyKey, `put ${n}`);
        return `put ${n} done`;
      },
    }),
    defineTool({
      name: "deploy",
      description: "deploys",
      input: z.object({ target: z.string() }),
      permission: "ask",
      execute: async ({ target }, ctx) => {
        await hooks.before?.("deploy", 0);
        await record(ctx.idempotencyKey, `deploy ${target}`);
        await hooks.after?.("deploy", 0);
        return `deployed ${target}`;
      },
    }),
  ];
}

export const QUICK = { jobExpireSeconds: 2, maintenanceIntervalSeconds: 1, maxAttempts: 3 };
export const LEASE_MS = 900;

export function openQueue(connectionString: string, schema: string, extra: Partial<TaskQueueOptions> = {}): TaskQueue {
  return createTaskQueue({ connectionString, schema, ...QUICK, ...extra });
}

export async function createEffectsTable(db: pg.Pool, schema: string) {
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.effects (idempotency_key ` +
      `text, name text, pid int, at timestamptz DEFAULT now())`,
  );
}

/** The runner's brain: the faux script, or the OpenAI brain against a loopback server. */
export type BrainChoice = { faux: ReturnType<typeof recordingBrain> } | { baseUrl: string };

export function workerOptions(
  queue: TaskQueue,
  toolList: WorkerOptions["tools"],
  brain: BrainChoice = { faux: recordingBrain() },
): WorkerOptions {
  const runner =
    "faux" in brain
      ? { brains: [brain.faux], models: { main: fauxModel({ id: "main" }) } }
      : { brains: [createOpenAIBrain({ apiKey: "test" })], models: { main: loopbackModel(brain.baseUrl) } };
  return {
    queue,
    runner: { ...runner, parkKey: PARK_KEY },
    tools: toolList,
    leaseMs: LEASE_MS,
    pollMs: 50,
    concurrency: 4,
  };
}
