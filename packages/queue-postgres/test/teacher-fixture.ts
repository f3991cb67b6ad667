// Teacher mode as a queued task, shared by the tests and the child worker: a student that answers 42
// until the teacher's advice is in its session, then does two steps (a gated deploy first when the task
// says so) and answers 41; a teacher whose advice says so; the host's check, in code; strategies in
// PostgreSQL, so every worker process shares one memory.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import { PostgresStrategyStore } from "@x/strategy-store-postgres";
import { teacherTask, TEACHER_PROMPT } from "@x/teacher";
import { defineTool, type Tool } from "@x/runner";
import { z } from "zod";
import type { TaskQueue, WorkerOptions } from "../src/index";
import { LEASE_MS, PARK_KEY, tools, type ToolHooks } from "./fixture";

export const ADVICE = { strategy: "Count the gaps, not the posts.", correction: "count the gaps", confidence: 3 };
export const RIGHT = "41";

/** Which seat a request is for, as a provider would see it: the teacher's advice asks carry its prompt. */
export const isTeacherCall = (ctx: FauxRequestContext) => ctx.context.systemPrompt === TEACHER_PROMPT;

/** The scripted student and teacher; `calls` gets each call's seat, `hold` may keep a teacher call hanging. */
export function teacherBrain(calls: string[] = [], hold?: () => Promise<void>) {
  return createFauxBrain(async (ctx) => {
    const messages = ctx.context.messages;
    if (isTeacherCall(ctx)) {
      calls.push("teacher");
      await hold?.();
      // A task that says "hand over" gets a teacher who takes it over rather than correcting.
      const takeover = JSON.stringify(messages).includes("hand over");
      return fauxText(JSON.stringify({ takeover, ...ADVICE }));
    }
    if (ctx.model.id === "teacher") {
      // The takeover: the teacher does the two steps itself, then answers.
      calls.push("takeover");
      const n = messages.filter((m) => m.role === "toolResult").length + 1;
      return n <= 2 ? fauxToolCall("step", { n }, { id: `step-${n}` }) : fauxText(RIGHT);
    }
    calls.push("student");
    const objective = messages.find((m) => m.role === "user");
    const said = typeof objective?.content === "string" ? objective.content : "";
    if (!JSON.stringify(messages).includes(ADVICE.correction)) {
      // A stuck student keeps probing (new arguments each time, so only teacher mode's tracker sees it).
      const probes = messages.filter((m) => m.role === "toolResult").length;
      return said.includes("probe")
        ? fauxToolCall("probe", { n: probes + 1 }, { id: `probe-${probes + 1}` })
        : fauxText("42");
    }
    const deploys = said.includes("deploy") ? 1 : 0;
    // Only this run's results count: the probes before the advice are history.
    const advised = messages.findIndex((m) => m.role === "user" && JSON.stringify(m).includes(ADVICE.correction));
    const results = messages.slice(advised).filter((m) => m.role === "toolResult").length;
    if (results < deploys) return fauxToolCall("deploy", { target: "prod" }, { id: "deploy-1" });
    const n = results - deploys + 1;
    return n <= 2 ? fauxToolCall("step", { n }, { id: `step-${n}` }) : fauxText(RIGHT);
  });
}

export async function openStrategies(url: string, schema: string) {
  return PostgresStrategyStore.open({ connectionString: url, schema: `${schema}_strategies` });
}

/** A worker that runs `teacher` tasks (and plain ones) on the scripted models. */
export function teacherWorkerOptions(
  queue: TaskQueue,
  strategies: PostgresStrategyStore,
  brain: ReturnType<typeof teacherBrain>,
  hooks: ToolHooks = {},
): WorkerOptions {
  const verify = ({ output }: { output: string }) => output.trim() === RIGHT;
  return {
    queue,
    runner: {
      brains: [brain],
      models: { main: fauxModel({ id: "main" }), teacher: fauxModel({ id: "teacher" }) },
      roles: { default: "main", advisor: "teacher" },
      parkKey: PARK_KEY,
    },
    tools: [...tools(queue.pool, queue.schema, hooks), probe(queue, hooks)],
    // No stuck monitor: three failed probes in a row stop the student at once.
    kinds: {
      teacher: teacherTask({ key: PARK_KEY, config: { strategyStore: strategies, verify, useStuckMonitor: false } }),
    },
    leaseMs: LEASE_MS,
    pollMs: 50,
    concurrency: 4,
  };
}

/** A tool that records its effect, then fails: what a stuck student keeps calling. */
function probe(queue: TaskQueue, hooks: ToolHooks): Tool {
  return defineTool({
    name: "probe",
    description: "probes the target",
    input: z.object({ n: z.number() }),
    execute: async ({ n }, ctx) => {
      await queue.pool.query(`INSERT INTO ${queue.schema}.effects (idempotency_key, name, pid) VALUES ($1, $2, $3)`, [
        ctx.idempotencyKey,
        `probe ${n}`,
        process.pid,
      ]);
      await hooks.after?.("probe", n);
      throw new Error(`probe ${n}: connection refused`);
    },
  });
}
