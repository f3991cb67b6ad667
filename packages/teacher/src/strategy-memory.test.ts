import { fauxText } from "@x/brain-faux";
import type { StrategyStore } from "@x/strategy-store-core";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { describe, expect, it } from "vitest";
import { runWithTeacher } from "./index";
import { advice, fail, pass, setup, toolRun } from "../test/harness";

const seed = (
  store: StrategyStore,
  scope: string,
  strategy: string,
  problem = "count the fence posts along a straight fence",
) => store.put({ scope, problem, strategy, confidence: 3, source: "test" });

/** A store that records which methods were called, to prove it was not touched. */
function spied(store: StrategyStore): { store: StrategyStore; used: string[] } {
  const used: string[] = [];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        used.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, used };
}

describe("strategy memory", () => {
  it("puts the top retrieveK strategies of the scope into the objective before the run", async () => {
    const store = new MemoryStrategyStore();
    await seed(store, "team-a", "Posts are gaps plus one.");
    await seed(store, "team-a", "Measure the fence length first.", "fence posts spacing along a fence");
    await seed(store, "team-a", "Unrelated: bake at 180 degrees.", "baking bread in an oven");
    const { runner, calls } = setup({ student: [fauxText("11")], verifier: [pass()] });
    await runWithTeacher(runner, toolRun({ objective: "How many fence posts for a 100 m fence?" }), {
      strategyStore: store,
      scope: "team-a",
      retrieveK: 1,
    });
    const first = calls("student")[0]!.context.messages[0]!.content as string;
    expect(first).toContain("How many fence posts for a 100 m fence?");
    expect(first.match(/^- /gm)).toHaveLength(1);
    expect(first).not.toContain("bake");
  });

  it("never reads across scopes: retrieval, outcomes and the stored strategy stay in the run's scope", async () => {
    const store = new MemoryStrategyStore();
    await seed(store, "team-a", "Team A secret: posts are gaps plus one.");
    await seed(store, "team-b", "Team B: draw the fence first.");
    const { runner, calls } = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "Count the end post.", confidence: 3 })],
    });
    await runWithTeacher(runner, toolRun({ objective: "How many fence posts along a straight fence?" }), {
      strategyStore: store,
      scope: "team-b",
    });
    const first = calls("student")[0]!.context.messages[0]!.content as string;
    expect(first).toContain("Team B: draw the fence first.");
    expect(first).not.toContain("Team A");
    expect(JSON.stringify(calls("teacher"))).not.toContain("Team A");
    // Team A's record is untouched: not counted as used, and the new strategy did not land there.
    expect((await store.list({ scope: "team-a" })).records).toMatchObject([
      { strategy: "Team A secret: posts are gaps plus one.", uses: 0 },
    ]);
    const b = (await store.list({ scope: "team-b" })).records.map((r) => [r.strategy, r.uses]);
    expect(b).toEqual(
      expect.arrayContaining([
        ["Team B: draw the fence first.", 1],
        ["Count the end post.", 0],
      ]),
    );
    expect(b).toHaveLength(2);
  });

  it("drops a hit from another scope even when a faulty backend returns one", async () => {
    const real = new MemoryStrategyStore();
    await seed(real, "team-a", "Team A secret: posts are gaps plus one.");
    const [foreign] = await real.search({ scope: "team-a", query: "fence posts", k: 1 });
    const { store, used } = spied(real);
    const leaky = Object.assign(Object.create(store) as StrategyStore, {
      search: async () => (used.push("search"), [foreign!]),
    });
    const { runner, calls } = setup({ student: [fauxText("11")], verifier: [pass()] });
    await runWithTeacher(runner, toolRun({ objective: "How many fence posts?" }), {
      strategyStore: leaky,
      scope: "team-b",
    });
    expect(used).toContain("search");
    expect(calls("student")[0]!.context.messages[0]!.content).toBe("How many fence posts?");
    expect(used).not.toContain("recordOutcome");
  });

  it("stores the final escalation's strategy on success when confident enough, in the run's scope", async () => {
    const store = new MemoryStrategyStore();
    const { runner } = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "Posts are gaps plus one.", correction: "forgot the end post", confidence: 2 })],
    });
    const first = await runWithTeacher(runner, toolRun({ objective: "How many fence posts?" }), {
      strategyStore: store,
      scope: "team-a",
    });
    const { records } = await store.list({ scope: "team-a" });
    expect(records).toMatchObject([
      {
        problem: "How many fence posts?",
        strategy: "Posts are gaps plus one.",
        correction: "forgot the end post",
        confidence: 2,
        source: "teacher",
        tags: ["verify-fail"],
      },
    ]);
    expect((await store.list({ scope: "team-b" })).records).toEqual([]);
    // The result names what was stored (and that nothing was there to recall).
    expect(first.strategies).toEqual({
      recalled: [],
      stored: { id: records[0]!.id, strategy: "Posts are gaps plus one.", confidence: 2 },
    });

    // The next similar task gets it without a teacher, and its result says which strategy it was given.
    const next = setup({ student: [fauxText("21")], verifier: [pass()] });
    const again = await runWithTeacher(next.runner, toolRun({ objective: "How many fence posts for 200 m?" }), {
      strategyStore: store,
      scope: "team-a",
    });
    expect(next.calls("student")[0]!.context.messages[0]!.content).toContain("Posts are gaps plus one.");
    expect(again.escalations).toEqual([]);
    expect(again.strategies).toEqual({
      recalled: [{ id: records[0]!.id, score: expect.any(Number), strategy: "Posts are gaps plus one." }],
    });
    expect((await store.list({ scope: "team-a" })).records[0]).toMatchObject({ uses: 1, successes: 1 });
  });

  it("a one-call takeover (takeoverAfter 0) stores the strategy its answer ends with", async () => {
    const store = new MemoryStrategyStore();
    const reply =
      'It needs 11 posts.\n```json\n{"strategy": "Posts are gaps plus one.", ' +
      '"correction": "forgot the end post", "takeover": true, "confidence": 3}\n```';
    const { runner, calls } = setup({ student: [fauxText("10")], verifier: [fail()], takeover: [fauxText(reply)] });
    const result = await runWithTeacher(runner, toolRun({ objective: "How many fence posts?" }), {
      strategyStore: store,
      scope: "team-a",
      takeoverAfter: 0,
    });
    expect(calls("teacher")).toHaveLength(0);
    expect(result.output).toBe("It needs 11 posts.");
    expect((await store.list({ scope: "team-a" })).records).toMatchObject([
      { strategy: "Posts are gaps plus one.", correction: "forgot the end post", confidence: 3, tags: ["verify-fail"] },
    ]);
  });

  it("does not store below minConfidenceToStore, nor after an unresolved run", async () => {
    const store = new MemoryStrategyStore();
    const low = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "S", confidence: 1 })],
    });
    const notConfident = await runWithTeacher(low.runner, toolRun({ objective: "q" }), {
      strategyStore: store,
      scope: "s",
    });
    expect((await store.list({ scope: "s" })).records).toEqual([]);
    expect(notConfident.strategies).toEqual({ recalled: [] });

    const unresolved = setup({
      student: [fauxText("10"), fauxText("12")],
      verifier: [fail(), fail()],
      teacher: [advice({ strategy: "S", confidence: 3 })],
    });
    await runWithTeacher(unresolved.runner, toolRun({ objective: "q" }), {
      strategyStore: store,
      scope: "s",
      maxEscalations: 1,
    });
    expect((await store.list({ scope: "s" })).records).toEqual([]);

    const lowered = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "S", confidence: 1 })],
    });
    await runWithTeacher(lowered.runner, toolRun({ objective: "q" }), {
      strategyStore: store,
      scope: "s",
      minConfidenceToStore: 1,
    });
    expect((await store.list({ scope: "s" })).records).toHaveLength(1);
  });

  it("a store without a scope (or a scope without a store) is refused before anything runs: it'd be moot", async () => {
    const { store, used } = spied(new MemoryStrategyStore());
    const { runner, brain } = setup({ student: [fauxText("10")] });
    await expect(runWithTeacher(runner, toolRun({ objective: "q" }), { strategyStore: store })).rejects.toMatchObject({
      code: "teacher.config_invalid",
      message: expect.stringMatching(/scope/),
    });
    await expect(runWithTeacher(runner, toolRun({ objective: "q" }), { scope: "s" })).rejects.toThrow(/strategyStore/);
    expect(used).toEqual([]);
    expect(brain.calls).toHaveLength(0);
  });

  it("injectStrategies: false retrieves nothing into the objective but still stores", async () => {
    const { store, used } = spied(new MemoryStrategyStore());
    await seed(store, "s", "Posts are gaps plus one.");
    used.length = 0;
    const { runner, calls } = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "Count gaps.", confidence: 3 })],
    });
    await runWithTeacher(runner, toolRun({ objective: "fence posts?" }), {
      strategyStore: store,
      scope: "s",
      injectStrategies: false,
    });
    expect(calls("student")[0]!.context.messages[0]!.content).toBe("fence posts?");
    expect(used).toEqual(["put"]);
  });

  it("a failing store never fails the task", async () => {
    const closed = new MemoryStrategyStore();
    await closed.close();
    const { store, used } = spied(closed);
    const { runner } = setup({
      student: [fauxText("10"), fauxText("11")],
      verifier: [fail(), pass()],
      teacher: [advice({ strategy: "S", confidence: 3 })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { strategyStore: store, scope: "s" });
    // Both the search and the write were tried, and both threw.
    expect(used).toEqual(["search", "put"]);
    await expect(closed.search({ scope: "s", query: "q" })).rejects.toThrow();
    expect(result.status).toBe("completed");
    expect(result.output).toBe("11");
    // Neither the failed search nor the failed write is reported as a strategy.
    expect(result.strategies).toEqual({ recalled: [] });
  });
});
