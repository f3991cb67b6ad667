import { fauxText } from "@x/brain-faux";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { describe, expect, it } from "vitest";
import { runWithTeacher, TAKEOVER_ADVICE_PROMPT, TAKEOVER_PROMPT, type EscalationRecord } from "./index";
import { advice, editCall, fail, pass, setup, stuck, tools, toolRun } from "../test/harness";

const block =
  '```json\n{"strategy": "Subtract what is used before pricing.", "correction": "priced all eggs", ' +
  '"nextStep": "list the uses", "takeover": true, "confidence": 3}\n```';

/** Every answer fails the verifier; two corrections fail, then the teacher takes over. */
const correctedTwice = () =>
  setup(
    {
      student: [fauxText("a1"), fauxText("a2"), fauxText("a3")],
      teacher: [advice({ correction: "wrong first" }), advice({ correction: "wrong again" })],
      takeover: [fauxText("t")],
    },
    { fallback: { verifier: fail() } },
  );

describe("one-shot tasks (no tools): the defaults take over at once", () => {
  it("one teacher call per escalation, shown the bare task as a plain call is: no advice ask, no block", async () => {
    const { runner, calls } = setup({
      student: [fauxText("26")],
      verifier: [fail("eggs eaten were priced")],
      takeover: [fauxText("18")],
    });
    const result = await runWithTeacher(runner, { objective: "How much does Janet make?", systemPrompt: "Solve it." });
    expect(result.output).toBe("18");
    expect(calls("teacher")).toHaveLength(0);
    const [takeover] = calls("takeover");
    expect(takeover!.context.systemPrompt).toBe("Solve it.");
    expect(takeover!.context.messages).toEqual([
      expect.objectContaining({ role: "user", content: "How much does Janet make?" }),
    ]);
    expect(result.escalations).toEqual([
      { attempt: 1, trigger: "verify-fail", teacher: { takeover: true, confidence: 0 }, tookOver: true },
    ]);
    expect(result.teacherStats.tasks).toBe(1);
    // The takeover's request is exactly what a bare call on the teacher sends.
    const bare = setup({ student: [fauxText("18")] }, { roles: { default: "teacher" } });
    await bare.runner.runTask({ objective: "How much does Janet make?", systemPrompt: "Solve it." });
    expect(takeover!.context.systemPrompt).toBe(bare.brain.calls[0]!.context.systemPrompt);
    expect(takeover!.context.messages.map((m) => m.content)).toEqual(
      bare.brain.calls[0]!.context.messages.map((m) => m.content),
    );
  });

  it("with strategy memory on, the same one call also writes the advice block, which is stored", async () => {
    const store = new MemoryStrategyStore();
    const { runner, calls } = setup({
      student: [fauxText("26")],
      verifier: [fail()],
      takeover: [fauxText(`18\n\n${block}`)],
    });
    const result = await runWithTeacher(runner, { objective: "eggs?" }, { strategyStore: store, scope: "t" });
    expect(result.output).toBe("18");
    expect(calls("takeover")[0]!.context.systemPrompt).toBe(TAKEOVER_ADVICE_PROMPT);
    expect(result.strategies.stored?.strategy).toBe("Subtract what is used before pricing.");
  });

  it("oneShot: false (or any tool) keeps the seed's correction rounds for a task without tools", async () => {
    const { runner, calls } = setup({
      student: [fauxText("26"), fauxText("18")],
      verifier: [fail(), pass()],
      teacher: [advice({ correction: "the eggs she eats are not sold" })],
    });
    const result = await runWithTeacher(runner, { objective: "eggs?" }, { oneShot: false });
    expect(result.output).toBe("18");
    expect(calls("takeover")).toHaveLength(0);
    expect(result.escalations.map((e) => e.tookOver)).toEqual([false]);
  });
});

describe("the seed's defaults on a multi-turn tool run", () => {
  it("corrects twice, then takes over with the full brief after takeoverAfter (2) failed corrections", async () => {
    const { runner, calls } = correctedTwice();
    const result = await runWithTeacher(runner, toolRun({ objective: "solve", systemPrompt: "host rules" }), {
      teacherSpendRatioCap: 100,
    });
    expect(result.escalations.map((e) => e.tookOver)).toEqual([false, false, true]);
    expect(calls("teacher")).toHaveLength(2);
    const system = calls("takeover")[0]!.context.systemPrompt!;
    // The brief comes after a prefix every takeover shares, and no advice block is asked for.
    expect(system.startsWith(`host rules\n\n${TAKEOVER_PROMPT}\n\n`)).toBe(true);
    expect(system).not.toContain(TAKEOVER_ADVICE_PROMPT);
    expect(system).toMatch(/latest answer:\na3[\s\S]*wrong first[\s\S]*wrong again/);
    expect(result.output).toBe("t");
  });
});

describe("takeoverBrief", () => {
  const run = async (takeoverBrief: "full" | "short" | "none") => {
    const { runner, calls } = setup({
      student: [editCall, editCall, editCall],
      monitor: [stuck(true)],
      takeover: [fauxText("done")],
    });
    await runWithTeacher(
      runner,
      { objective: "fix it", tools: [tools().edit], systemPrompt: "host rules" },
      { takeoverAfter: 0, takeoverBrief },
    );
    return calls("takeover")[0]!.context.systemPrompt!;
  };

  it("full shows the student's tool results; short only why it was stopped; none nothing at all", async () => {
    const full = await run("full");
    expect(full).toContain(TAKEOVER_PROMPT);
    expect(full).toMatch(/stuck — stopped as stuck[\s\S]*permission denied: file-/);
    const short = await run("short");
    expect(short).toBe(
      `host rules\n\n${TAKEOVER_PROMPT}\n\nWhy the student was stopped: stuck — ${short.split("stuck — ")[1]}`,
    );
    expect(short).not.toContain("permission denied");
    expect(await run("none")).toBe("host rules");
  });

  it("also shapes a takeover the teacher asked for after advice", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1")],
      verifier: [fail("wrong total")],
      teacher: [advice({ correction: "hopeless", takeover: true })],
      takeover: [fauxText("t")],
    });
    await runWithTeacher(runner, toolRun({ objective: "q" }), { takeoverBrief: "none" });
    expect(calls("takeover")[0]!.context.systemPrompt).toBeUndefined();
  });
});

describe("takeoverAdvice", () => {
  it("true asks for the block and records its advice for an onEscalation listener, without any store", async () => {
    const heard: EscalationRecord[] = [];
    const { runner, calls } = setup({
      student: [fauxText("26")],
      verifier: [fail()],
      takeover: [fauxText(`18\n${block}`)],
    });
    const result = await runWithTeacher(
      runner,
      { objective: "eggs?" },
      { takeoverAdvice: true, onEscalation: (e) => heard.push(e) },
    );
    expect(calls("takeover")[0]!.context.systemPrompt).toContain(TAKEOVER_ADVICE_PROMPT);
    expect(result.output).toBe("18");
    expect(heard[0]!.teacher.strategy).toBe("Subtract what is used before pricing.");
  });

  it("false with memory on: no block asked, nothing stored", async () => {
    const store = new MemoryStrategyStore();
    const { runner, calls } = setup({ student: [fauxText("26")], verifier: [fail()], takeover: [fauxText("18")] });
    const result = await runWithTeacher(
      runner,
      { objective: "eggs?" },
      { strategyStore: store, scope: "t", takeoverAdvice: false },
    );
    expect(calls("takeover")[0]!.context.systemPrompt).toBeUndefined();
    expect(result.strategies.stored).toBeUndefined();
    expect((await store.list({ scope: "t" })).records).toEqual([]);
  });
});

describe("prompt caching", () => {
  it("every teacher call of a run shares one cache key; repeated advice asks extend one stable prefix", async () => {
    const { runner, calls } = correctedTwice();
    await runWithTeacher(runner, toolRun({ objective: "the task", sessionId: "s1" }), {
      teacherSpendRatioCap: 100,
      verifierSamples: 2,
    });
    const teacher = [...calls("teacher"), ...calls("takeover")];
    expect(new Set(teacher.map((c) => c.cacheKey))).toEqual(new Set(["s1:teacher"]));
    expect(new Set(calls("verifier").map((c) => c.cacheKey))).toEqual(new Set(["s1:helper"]));
    const [first, second] = calls("teacher").map(
      (c) => `${c.context.systemPrompt}\n${JSON.stringify(c.context.messages[0]!.content)}`,
    );
    // The two asks agree up to the failure report: the instructions, then the task.
    const shared = `${calls("teacher")[0]!.context.systemPrompt}\n"Task:\\nthe task\\n\\nWhy you are consulted`;
    expect(first!.startsWith(shared)).toBe(true);
    expect(second!.startsWith(shared)).toBe(true);
  });
});

describe("a takeover's answer is checked by the host's verify", () => {
  const posts = "How many posts does a 100 m fence need with a post every 10 m?";
  const wantsEleven = ({ output }: { output: string }) =>
    /\b11\b/.test(output) ? true : { pass: false, reason: "expected 11 posts" };
  const postsBlock =
    '```json\n{"strategy": "Posts are the gaps.", "correction": "c", "nextStep": "n", ' +
    '"takeover": true, "confidence": 3}\n```';

  it("a teacher answering 12 posts where verify wants 11: failed, nothing stored, its verdict recorded", async () => {
    const store = new MemoryStrategyStore();
    const { runner } = setup({
      student: [fauxText("There are 10 posts.")],
      takeover: [fauxText(`There are 12 posts.\n${postsBlock}`)],
    });
    const result = await runWithTeacher(
      runner,
      { objective: posts },
      { strategyStore: store, scope: "tenant-1", verify: wantsEleven },
    );
    expect(result.output).toBe("There are 12 posts.");
    expect(result.status).toBe("failed");
    expect(result.terminal).toEqual({
      code: "output_invalid",
      cause: "output",
      message: "the teacher's takeover answer failed the host's verify: expected 11 posts",
    });
    expect(result.verdicts).toEqual([
      { run: 1, by: "code", pass: false, reason: "expected 11 posts", samples: 0, tokens: 0, costMicroUsd: 0 },
      {
        run: 1,
        of: "takeover",
        by: "code",
        pass: false,
        reason: "expected 11 posts",
        samples: 0,
        tokens: 0,
        costMicroUsd: 0,
      },
    ]);
    expect(result.escalations.map((e) => e.tookOver)).toEqual([true]);
    expect(result.strategies.stored).toBeUndefined();
    expect((await store.list({ scope: "tenant-1" })).records).toEqual([]);
  });

  it("the same teacher answering 11 passes the same check: completed, and its strategy is stored", async () => {
    const store = new MemoryStrategyStore();
    const seen: string[] = [];
    const { runner } = setup({
      student: [fauxText("There are 10 posts.")],
      takeover: [fauxText(`There are 11 posts.\n${postsBlock}`)],
    });
    const result = await runWithTeacher(
      runner,
      { objective: posts },
      {
        strategyStore: store,
        scope: "tenant-1",
        verify: (input) => {
          seen.push(`${input.of} ${input.run}`);
          return wantsEleven(input);
        },
      },
    );
    expect(result.status).toBe("completed");
    expect(seen).toEqual(["student 1", "takeover 1"]);
    expect(result.verdicts.map((v) => [v.of, v.pass])).toEqual([
      [undefined, false],
      ["takeover", true],
    ]);
    expect((await store.list({ scope: "tenant-1" })).records.map((r) => r.strategy)).toEqual(["Posts are the gaps."]);
  });

  it("a takeover after advice is checked too, and the rubric never judges the teacher", async () => {
    const store = new MemoryStrategyStore();
    const { runner, calls } = setup({
      student: [fauxText("10")],
      verifier: [fail("looks off")],
      teacher: [advice({ strategy: "Count the ends.", correction: "hopeless", takeover: true, confidence: 3 })],
      takeover: [fauxText("12")],
    });
    let asked = 0;
    const result = await runWithTeacher(runner, toolRun({ objective: posts }), {
      strategyStore: store,
      scope: "t",
      // Undecided on the student's answer (the rubric then fails it); decided on the teacher's.
      verify: ({ of, output }) => (of === "student" ? undefined : (asked++, output === "11")),
    });
    expect(asked).toBe(1);
    expect(calls("verifier")).toHaveLength(1);
    expect(result.status).toBe("failed");
    expect(result.terminal.code).toBe("output_invalid");
    expect(result.verdicts.map((v) => [v.of ?? "student", v.by, v.pass])).toEqual([
      ["student", "code", undefined],
      ["student", "rubric", false],
      ["takeover", "code", false],
    ]);
    expect(result.strategies.stored).toBeUndefined();
    expect((await store.list({ scope: "t" })).records).toEqual([]);
  });

  it("a check of the takeover that calls a model is billed in the student-side stats and its verdict", async () => {
    const { runner } = setup({
      student: [fauxText("10", { usage: { input: 5, output: 5 } })],
      takeover: [fauxText("11")],
    });
    const result = await runWithTeacher(
      runner,
      { objective: posts },
      {
        verify: ({ of, output }) => ({
          pass: output === "11",
          usage: { tokens: of === "student" ? 3 : 7, costMicroUsd: of === "student" ? 30 : 70, modelCalls: 1 },
        }),
      },
    );
    expect(result.status).toBe("completed");
    expect(result.verdicts.map((v) => [v.of ?? "student", v.pass, v.tokens, v.costMicroUsd])).toEqual([
      ["student", false, 3, 30],
      ["takeover", true, 7, 70],
    ]);
    // The student's 10 tokens at $1/M, plus both checks.
    expect(result.stats.costMicroUsd).toBe(110);
    expect(result.stats.tokens).toBe(20);
  });

  it("without a verify the takeover's answer stands, unjudged", async () => {
    const { runner, calls } = setup({ student: [fauxText("10")], verifier: [fail()], takeover: [fauxText("12")] });
    const result = await runWithTeacher(runner, { objective: posts });
    expect(result.status).toBe("completed");
    expect(calls("verifier")).toHaveLength(1);
    expect(result.verdicts.map((v) => v.of)).toEqual([undefined]);
  });
});
