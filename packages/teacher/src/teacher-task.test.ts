import { fauxText, type FauxRequestContext } from "@x/brain-faux";
import type { Runner } from "@x/runner";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { describe, expect, it } from "vitest";
import { isCodedError } from "@x/llm-types";
import { teacherTask, TEACHER_STATE_VERSION, type TeacherConfig, type TeacherTaskTake } from "./index";
import { advice, editCall, setup, stuck, tools } from "../test/harness";

const KEY = "teacher-task-tests-key-0123456789abcdef";

/** The student answers 42 until the teacher's advice is in its session, then 41 (the right answer). */
const student = (ctx: FauxRequestContext) =>
  fauxText(JSON.stringify(ctx.context.messages).includes("count the gaps") ? "41" : "42");
const teacherSays = advice({ strategy: "Count the gaps, not the posts.", correction: "count the gaps", confidence: 3 });

/** A store that counts writes, to show none is repeated. */
function countingStore() {
  const store = new MemoryStrategyStore();
  let puts = 0;
  const original = store.put.bind(store);
  const put: MemoryStrategyStore["put"] = (input) => {
    puts++;
    return original(input);
  };
  return { store: Object.assign(store, { put }), puts: () => puts };
}

/**
 * One take of a queued task, as a worker makes it: the stored state in, each saved state out. A take
 * "dies" (throws, as a worker that lost its lease does) when it saves for the `dieAt`-th time.
 */
function take(runner: Runner, state: unknown, saved: unknown[], dieAt = Infinity): TeacherTaskTake {
  return {
    taskId: "task-1",
    owner: "acme",
    scope: "acme",
    spec: { objective: "How many gaps between 42 posts in a row?", tools: [tools().read] },
    runner,
    state,
    async saveState(value) {
      if (saved.length + 1 >= dieAt) throw new Error("worker died");
      saved.push(structuredClone(value));
    },
    runStep: (spec) => runner.runTask(spec),
  };
}

function world() {
  const { runner, calls } = setup({}, { fallback: { student, teacher: teacherSays } });
  const memory = countingStore();
  const config: TeacherConfig = { strategyStore: memory.store, verify: ({ output }) => output.trim() === "41" };
  return { runner, calls, memory, task: teacherTask({ key: KEY, config }) };
}

describe("teacherTask: teacher mode as a queued task", () => {
  it("uncut: one escalation, the strategy stored in the task's scope, its state saved after every step", async () => {
    const { runner, memory, task } = world();
    const saved: unknown[] = [];
    const result = await task.run(take(runner, null, saved));
    expect([result.status, result.output, result.escalations.length]).toEqual(["completed", "41", 1]);
    expect(result.strategies.stored?.strategy).toBe("Count the gaps, not the posts.");
    expect((await memory.store.list({ scope: "acme" })).records).toHaveLength(1);
    const steps = Object.keys((saved.at(-1) as { steps: object }).steps);
    expect(steps).toEqual([
      "recall",
      "student:1",
      "judge:1",
      "policy:1",
      "advice:1",
      "student:2",
      "judge:2",
      "stored",
      "outcome",
    ]);
  });

  for (const [when, dieAt, teacherCalls] of [
    ["while the teacher's advice call is in flight", 5, 2],
    ["while the student runs after the advice", 6, 1],
  ] as const) {
    it(`a take that dies ${when} is finished by the next, with what an uncut run has`, async () => {
      const { runner, calls, memory, task } = world();
      const first: unknown[] = [];
      await expect(task.run(take(runner, null, first, dieAt))).rejects.toThrow("worker died");
      const second: unknown[] = [];
      const result = await task.run(take(runner, first.at(-1), second));
      expect([result.status, result.output]).toEqual(["completed", "41"]);
      // Recorded steps are replayed, not done again: an advice on record is never asked twice (the one
      // cut in flight is asked again, as a model call in flight is), and one strategy is stored once.
      expect(calls("teacher")).toHaveLength(teacherCalls);
      expect(result.escalations.map((e) => [e.attempt, e.trigger, e.teacher.strategy])).toEqual([
        [1, "verify-fail", "Count the gaps, not the posts."],
      ]);
      expect([memory.puts(), (await memory.store.list({ scope: "acme" })).records.length]).toEqual([1, 1]);
      // The teacher's spend of the first take is billed in the result of the second.
      expect(result.teacherStats.tasks).toBe(1);
      expect(result.stats.tasks).toBe(2);
    });
  }

  it("a student run the worker aborted (stopping, lease lost) is not recorded: the next take runs it on", async () => {
    const { runner, calls, memory, task } = world();
    const first: unknown[] = [];
    const stopping = {
      ...take(runner, null, first),
      runStep: (spec: Parameters<Runner["runTask"]>[0]) =>
        runner.runTask(spec, { signal: AbortSignal.abort(new Error("worker stopping")) }),
    };
    const cut = await task.run(stopping);
    expect([cut.status, cut.escalations.length, cut.strategies.stored]).toEqual(["aborted", 0, undefined]);
    expect(Object.keys((first.at(-1) as { steps: object }).steps)).toEqual(["recall"]);
    const result = await task.run(take(runner, first.at(-1), []));
    expect([result.status, result.output, result.escalations.length]).toEqual(["completed", "41", 1]);
    expect([calls("teacher").length, memory.puts()]).toEqual([1, 1]);
  });

  it("the stuck monitor's spend in a student run cut short is billed by the take that finishes it", async () => {
    const stuckStudent = (ctx: FauxRequestContext) =>
      JSON.stringify(ctx.context.messages).includes("count the gaps") ? fauxText("41") : editCall(ctx);
    const run = async (dieAt?: number) => {
      const { runner, calls } = setup(
        {},
        { fallback: { student: stuckStudent, teacher: teacherSays, monitor: stuck(false) } },
      );
      const task = teacherTask({ key: KEY, config: { verify: ({ output }) => output.trim() === "41" } });
      const stuckTake = (state: unknown, saved: unknown[], die?: number) => ({
        ...take(runner, state, saved, die),
        spec: { objective: "How many gaps between 42 posts in a row?", tools: [tools().edit] },
      });
      const first: unknown[] = [];
      if (dieAt === undefined) return { result: await task.run(stuckTake(null, first)), calls };
      await expect(task.run(stuckTake(null, first, dieAt))).rejects.toThrow("worker died");
      // Saved: the recall, then the monitor's spend mid-run; the run's own record never happened.
      expect(first).toHaveLength(2);
      return { result: await task.run(stuckTake(first[1], [])), calls };
    };
    const uncut = await run();
    const cut = await run(3);
    expect(uncut.result.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
    expect(cut.result.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
    // The student run was done again here (no checkpoint in this take), so its monitor was asked again:
    // both monitor calls are billed, the dead take's included.
    expect([uncut.calls("monitor").length, cut.calls("monitor").length]).toEqual([1, 2]);
    const monitorTokens = cut.result.stats.tokens - uncut.result.stats.tokens;
    expect(monitorTokens).toBeGreaterThan(0);
    expect(cut.result.stats.modelCalls - uncut.result.stats.modelCalls).toBe(1);
  });

  it("a stored state altered, from another task, newer or malformed is refused, typed, nothing run", async () => {
    const { runner, calls, task } = world();
    const saved: unknown[] = [];
    await expect(task.run(take(runner, null, saved, 6))).rejects.toThrow("worker died");
    const good = saved.at(-1) as { steps: Record<string, unknown>; taskId: string; version: number };
    const before = calls("student").length + calls("teacher").length;
    const refusal = async (state: unknown, by = task) => {
      const error: unknown = await by.run(take(runner, state, [])).then(
        () => undefined,
        (e: unknown) => e,
      );
      return isCodedError(error) ? error.code : error;
    };
    const altered = structuredClone(good);
    altered.steps["advice:1"] = { advice: { takeover: true, confidence: 3 }, answered: true, stats: {} };
    expect(await refusal(altered)).toBe("teacher.state_tampered");
    expect(await refusal({ ...good, taskId: "task-2" })).toBe("teacher.state_tampered");
    expect(await refusal({ ...good, version: TEACHER_STATE_VERSION + 1 })).toBe("teacher.state_newer");
    expect(await refusal({ ...good, steps: "none" })).toBe("teacher.state_invalid");
    expect(await refusal(good, teacherTask({ key: `${KEY}-other` }))).toBe("teacher.state_tampered");
    expect(calls("student").length + calls("teacher").length).toBe(before);
  });
});
