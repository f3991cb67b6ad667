// Teacher mode as a queued task, shared by the tests and the child worker: a student that answers 42
// until the teacher's advice is in its session, then does two steps (a gated deploy first when the task
// says so) and answers 41; a teacher whose advice says so; the host's check, in code; strategies in
// PostgreSQL, so every worker process shares one memory.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import { PostgresStrategyStore } from "@x/strategy-store-postgres";
import { teacherTask, TEACHER_PROMPT } from "@x/teacher";
import type { TaskQueue, WorkerOptions } from "../src/index";
import { LEASE_MS, PARK_KEY, tools, type ToolHooks } from "./fixture";

export const ADVICE = { strategy: "Count the gaps, not the posts.", correction: "count the gaps", confidence: 3 };
export const RIGHT = "41";

/** Which seat a request is for, as a provider would see it: the teacher's advice asks carry its prompt. */
export const isTeacherCall = (ctx: FauxRequestContext) => ctx.context.systemPrompt === TEACHER_PROMPT;

/** The scripted student and teacher; `calls` gets each call's seat, `hold` may keep a teacher call hanging. */
export function teacherBrain(calls: string[] = [], hold?: () => Promise<void>) {
  return createFauxBrain(async (ctx) => {
    if (isTeacherCall(ctx)) {
      calls.push("teacher");
      await hold?.();
      return fauxText(JSON.stringify({ takeover: false, ...ADVICE }));
    }
    calls.push("student");
    const messages = ctx.context.messages;
    if (!JSON.stringify(messages).includes(ADVICE.correction)) return fauxText("42");
    const objective = messages.find((m) => m.role === "user");
    const deploys = typeof objective?.content === "string" && objective.content.includes("deploy") ? 1 : 0;
    const results = messages.filter((m) => m.role === "toolResult").length;
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
    tools: tools(queue.pool, queue.schema, hooks),
    kinds: { teacher: teacherTask({ key: PARK_KEY, config: { strategyStore: strategies, verify } }) },
    leaseMs: LEASE_MS,
    pollMs: 50,
    concurrency: 4,
  };
}
