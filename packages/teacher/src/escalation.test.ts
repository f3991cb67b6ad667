import { fauxError, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  runWithTeacher,
  TAKEOVER_ADVICE_PROMPT,
  TAKEOVER_PROMPT,
  TEACHER_PROMPT,
  type EscalationRecord,
} from "./index";
import { advice, editCall, fail, pass, setup, stuck, tools, toolRun } from "../test/harness";

const u = (input: number, output: number) => ({ usage: { input, output } });
/** The advice block a one-call takeover ends its answer with. */
const block =
  '```json\n{"strategy": "Work backwards from the goal.", "correction": "guessed", ' +
  '"nextStep": "write the goal down", "takeover": true, "confidence": 3}\n```';

describe("isolation and the student's prompt prefix", () => {
  it("the teacher sees a new one-message session; the student's next request extends its last exactly", async () => {
    const { runner, calls } = setup({
      student: [fauxToolCall("read", { path: "a.txt" }), fauxText("42"), fauxText("41")],
      verifier: [fail("off by one"), pass()],
      teacher: [advice({ strategy: "count intervals, not posts", correction: "off by one", nextStep: "subtract one" })],
    });
    const { read } = tools();
    const result = await runWithTeacher(runner, {
      objective: "how many gaps?",
      systemPrompt: "be brief",
      tools: [read],
    });
    expect(result.output).toBe("41");

    const [, before, after] = calls("student");
    expect(after!.context.messages.slice(0, before!.context.messages.length)).toEqual(before!.context.messages);
    expect(after!.context.systemPrompt).toBe(before!.context.systemPrompt);
    expect(after!.context.tools).toEqual(before!.context.tools);
    // What follows the old prefix: the student's own answer, then the advice as one user message.
    const added = after!.context.messages.slice(before!.context.messages.length);
    expect(added.map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(added[1]!.content).toContain("subtract one");
    // Nothing of the teacher's session leaks into the student's: not its prompt, not its raw reply.
    const studentText = JSON.stringify(after!.context);
    expect(studentText).not.toContain(TEACHER_PROMPT.slice(0, 40));
    expect(studentText).not.toContain('"confidence"');

    // One cache key for all the student's requests; the teacher's session is another.
    const keys = new Set(calls("student").map((c) => c.cacheKey));
    expect(keys.size).toBe(1);
    expect(calls("teacher")[0]!.cacheKey).not.toBe([...keys][0]);

    const [asked] = calls("teacher");
    expect(asked!.context.systemPrompt).toBe(TEACHER_PROMPT);
    expect(asked!.context.messages).toHaveLength(1);
    expect(asked!.context.tools ?? []).toEqual([]);
    expect(JSON.stringify(asked!.context.messages)).toContain("how many gaps?");
    // The host gets the student's whole session to append: objective, turns, advice, final answer.
    expect(result.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("with host history, every student request starts with that history and extends the one before", async () => {
    const history = [{ role: "user" as const, content: "earlier question", timestamp: 1 }];
    const { runner, calls } = setup({
      student: [fauxText("a1"), fauxText("a2")],
      verifier: [fail(), pass()],
      teacher: [advice({ correction: "c" })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q", history }));
    const [first, second] = calls("student");
    expect(first!.context.messages[0]).toEqual(history[0]);
    expect(second!.context.messages.slice(0, first!.context.messages.length)).toEqual(first!.context.messages);
    // The result's messages are new ones only: the host appends them to its own history.
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("after a stuck stop, the next request still starts with the previous request's messages", async () => {
    const { runner, calls } = setup({
      student: [editCall, editCall, editCall, fauxText("ok")],
      monitor: [stuck(true)],
      teacher: [advice({ correction: "c" })],
      verifier: [pass()],
    });
    await runWithTeacher(runner, { objective: "fix", tools: [tools().edit], sessionId: "host-session" });
    const student = calls("student");
    expect(new Set(student.map((c) => c.cacheKey))).toEqual(new Set(["host-session"]));
    const before = student[2]!.context.messages;
    expect(student[3]!.context.messages.slice(0, before.length)).toEqual(before);
  });
});

describe("correction, then takeover", () => {
  it(`after takeoverAfter (default 2) failed corrections, takes over with the student's tools in 1 call`, async () => {
    const heard: EscalationRecord[] = [];
    const { runner, calls } = setup(
      {
        student: [fauxText("a1"), fauxText("a2"), fauxText("a3")],
        teacher: [advice({ correction: "wrong first" }), advice({ correction: "wrong again" })],
        takeover: [fauxText(`teacher's answer\n\n${block}`)],
      },
      { fallback: { verifier: fail() } },
    );
    const { read } = tools();
    // The spend guard is lifted: faux token estimates make the teacher's brief look expensive.
    const result = await runWithTeacher(
      runner,
      { objective: "solve", tools: [read], systemPrompt: "host rules" },
      // A listener that wants the takeover's strategy asks for the advice block.
      { teacherSpendRatioCap: 100, onEscalation: (e) => heard.push(e), takeoverAdvice: true },
    );
    expect(result.escalations.map((e) => [e.attempt, e.tookOver])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(heard).toEqual(result.escalations);
    // Two advice asks, then the takeover alone: no advice ask whose text the takeover would replace.
    expect(calls("teacher")).toHaveLength(2);
    expect(calls("takeover")).toHaveLength(1);
    expect(result.teacherStats.tasks).toBe(3);
    expect(result.status).toBe("completed");
    // The advice block is the teacher's note for later, not the host's answer: cut from output and messages.
    expect(result.output).toBe("teacher's answer");
    expect(result.messages.at(-1)).toMatchObject({
      role: "assistant",
      model: "teacher",
      content: [{ type: "text", text: "teacher's answer" }],
    });
    expect(result.escalations[2]!.teacher).toEqual({
      strategy: "Work backwards from the goal.",
      correction: "guessed",
      nextStep: "write the goal down",
      takeover: true,
      confidence: 3,
    });
    const [takeover] = calls("takeover");
    expect(takeover!.model.id).toBe("teacher");
    expect(takeover!.context.tools?.map((t) => t.name)).toEqual(["read"]);
    expect(takeover!.context.systemPrompt?.startsWith(`host rules\n\n${TAKEOVER_PROMPT}`)).toBe(true);
    // It is shown what an advice ask would have been shown: the failure, the answer, the advice that failed.
    expect(takeover!.context.systemPrompt).toMatch(
      new RegExp(
        String.raw`verify-fail[\s\S]*latest answer:\na3[\s\S]*` +
          String.raw`Advice 1 you already gave[^\n]*wrong first[\s\S]*Advice 2[^\n]*wrong again`,
      ),
    );
    expect(takeover!.context.messages).toHaveLength(1);
    expect(takeover!.cacheKey).not.toBe(calls("student")[0]!.cacheKey);
    // Each new ask shows the teacher the advice that already failed.
    expect(JSON.stringify(calls("teacher")[1]!.context.messages)).toMatch(/Advice 1 you already gave[^"]*wrong first/);
  });

  it("takes over at once on takeover: true (advice, then takeover), or in one call if takeoverAfter is 0", async () => {
    const a = setup({
      student: [fauxText("a1")],
      verifier: [fail()],
      teacher: [advice({ correction: "hopeless", takeover: true })],
      takeover: [fauxText("done by teacher")],
    });
    const asked = await runWithTeacher(a.runner, toolRun({ objective: "solve" }));
    expect(asked.escalations).toEqual([
      {
        attempt: 1,
        trigger: "verify-fail",
        teacher: { correction: "hopeless", takeover: true, confidence: 2 },
        tookOver: true,
      },
    ]);
    expect(asked.output).toBe("done by teacher");
    expect(a.calls("teacher")).toHaveLength(1);
    expect(a.calls("takeover")[0]!.context.systemPrompt).toContain("hopeless");
    expect(asked.teacherStats.tasks).toBe(2);

    const b = setup({
      student: [fauxText("a1")],
      verifier: [fail()],
      takeover: [fauxText(`done by teacher\n${block}`)],
    });
    const forced = await runWithTeacher(b.runner, toolRun({ objective: "solve" }), {
      takeoverAfter: 0,
      takeoverAdvice: true,
    });
    expect(forced.escalations.map((e) => [e.tookOver, e.teacher.strategy])).toEqual([
      [true, "Work backwards from the goal."],
    ]);
    expect(forced.output).toBe("done by teacher");
    expect(b.calls("teacher")).toHaveLength(0);
    expect(forced.teacherStats.tasks).toBe(1);
  });

  it("a one-call takeover without an advice block keeps the answer whole and records unstorable advice", async () => {
    const { runner } = setup({
      student: [fauxText("a1")],
      verifier: [fail()],
      takeover: [fauxText('the answer is {"x": 1}')],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "solve" }), {
      takeoverAfter: 0,
      takeoverAdvice: true,
    });
    expect(result.output).toBe('the answer is {"x": 1}');
    expect(result.escalations).toEqual([
      {
        attempt: 1,
        trigger: "verify-fail",
        teacher: { takeover: true, confidence: 0, raw: 'the answer is {"x": 1}' },
        tookOver: true,
      },
    ]);
  });

  it("an unreachable teacher at a one-call takeover leaves the student's result standing", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1")],
      verifier: [fail()],
      takeover: [fauxError("auth", "bad key")],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "solve" }), { takeoverAfter: 0 });
    expect(calls("takeover")).toHaveLength(1);
    expect(result.output).toBe("a1");
    expect(result.escalations).toEqual([
      { attempt: 1, trigger: "verify-fail", teacher: { takeover: false, confidence: 0, raw: "" }, tookOver: false },
    ]);
    expect(result.teacherStats.tasks).toBe(1);
  });

  it("a host output schema gets the advice asked apart, since a trailing block would break the schema", async () => {
    const output = z.object({ n: z.number() });
    const { runner, calls } = setup({
      student: [fauxText('{"n": 1}')],
      verifier: [fail()],
      teacher: [advice({ correction: "c", strategy: "S" })],
      takeover: [fauxText('{"n": 2}')],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "solve", output }), {
      takeoverAfter: 0,
      takeoverAdvice: true,
    });
    expect(calls("teacher")).toHaveLength(1);
    expect(calls("takeover")[0]!.context.systemPrompt).not.toContain(TAKEOVER_ADVICE_PROMPT);
    expect(result.structured).toEqual({ n: 2 });
    expect(result.escalations.map((e) => [e.tookOver, e.teacher.strategy])).toEqual([[true, "S"]]);
  });

  it("advice that is not JSON is kept as a low-confidence correction and reaches the student", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1"), fauxText("a2")],
      verifier: [fail(), pass()],
      teacher: [fauxText("Read the second paragraph again.")],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "solve" }));
    expect(result.escalations[0]!.teacher).toEqual({
      correction: "Read the second paragraph again.",
      takeover: false,
      confidence: 0,
      raw: "Read the second paragraph again.",
    });
    expect(JSON.stringify(calls("student")[1]!.context.messages.at(-1))).toContain("Read the second paragraph again.");
  });

  it("the teacher is `model` when given, else the advisor role", async () => {
    // advisor → helper: the advice call goes to the helper model (this harness files it under the student seat).
    const a = setup(
      { student: [fauxText("a")], verifier: [fail()] },
      { roles: { advisor: "helper" }, fallback: { student: fauxText("h") } },
    );
    const viaRole = await runWithTeacher(a.runner, toolRun({ objective: "solve" }), { maxEscalations: 1 });
    expect(a.brain.calls.some((c) => c.model.id === "helper" && c.context.systemPrompt === TEACHER_PROMPT)).toBe(true);
    expect(viaRole.escalations).toHaveLength(1);

    const b = setup(
      { student: [fauxText("a"), fauxText("b")], verifier: [fail(), pass()], teacher: [advice({ correction: "c" })] },
      { roles: { advisor: "helper" } },
    );
    await runWithTeacher(b.runner, toolRun({ objective: "solve" }), { model: "teacher" });
    expect(b.calls("teacher")).toHaveLength(1);
  });

  it("custom prompts replace the teacher, verifier and monitor instructions", async () => {
    const prompts = { teacher: "TEACH AS JSON", verifier: "VERIFY AS JSON", monitor: "MONITOR AS JSON" };
    const { runner, calls } = setup(
      {
        student: [editCall, editCall, editCall, fauxText("x"), fauxText("y")],
        monitor: [stuck(true)],
        teacher: [advice({ correction: "c1" }), advice({ correction: "c2" })],
        verifier: [fail(), pass()],
      },
      { prompts },
    );
    // The spend guard is lifted: faux token estimates make the teacher's brief look expensive.
    const result = await runWithTeacher(
      runner,
      { objective: "q", tools: [tools().edit] },
      { prompts, teacherSpendRatioCap: 100 },
    );
    expect(result.escalations.map((e) => e.trigger)).toEqual(["stuck", "verify-fail"]);
    expect(calls("monitor")[0]!.context.systemPrompt).toBe("MONITOR AS JSON");
    expect(calls("verifier")[0]!.context.systemPrompt).toBe("VERIFY AS JSON");
    expect(calls("teacher")[0]!.context.systemPrompt).toBe("TEACH AS JSON");
  });

  it("onEscalation hears every escalation; a throwing callback changes nothing", async () => {
    const heard: EscalationRecord[] = [];
    const { runner } = setup({
      student: [fauxText("a"), fauxText("b")],
      verifier: [fail(), pass()],
      teacher: [advice({ correction: "c" })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      onEscalation: (e) => {
        heard.push(e);
        throw new Error("observer bug");
      },
    });
    expect(heard).toEqual(result.escalations);
    expect(result.output).toBe("b");
  });
});

describe("when the teacher cannot be reached", () => {
  it("the escalation is recorded with empty advice and the student's result stands", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1")],
      verifier: [fail()],
      teacher: [fauxError("auth", "bad key")],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }));
    expect(result.escalations).toEqual([
      { attempt: 1, trigger: "verify-fail", teacher: { takeover: false, confidence: 0, raw: "" }, tookOver: false },
    ]);
    expect(result.output).toBe("a1");
    expect(calls("student")).toHaveLength(1);
    expect(result.teacherStats.tasks).toBe(1);
  });
});

describe("teacherStats", () => {
  it("counts the teacher's runs apart from the student's stats, which include the helper calls", async () => {
    const { runner } = setup({
      student: [fauxText("a1", u(100, 50))],
      verifier: [fail("no", { input: 20, output: 5 })],
      teacher: [advice({ correction: "c", takeover: true }, { input: 300, output: 40 })],
      takeover: [fauxText("t", u(200, 60))],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }));
    // Teacher price: $10 / $30 per million ⇒ 300·10 + 40·30 + 200·10 + 60·30 = 8000 micro-dollars.
    expect(result.teacherStats).toEqual({ tokens: 600, tasks: 2, costMicroUsd: 8000, costUsd: 0.008 });
    // Student ($1/$1) 150 tokens + helper on the student's model 25 tokens.
    expect(result.stats).toMatchObject({ tokens: 175, costMicroUsd: 175, tasks: 2 });
  });

  it("a takeover's approval gate is the teacher's human review, not the student's", async () => {
    const { edit } = tools();
    const { runner } = setup(
      {
        student: [fauxText("a1")],
        verifier: [fail()],
        teacher: [advice({ correction: "c", takeover: true })],
        takeover: [fauxToolCall("edit", { path: "x" }), fauxText("t")],
      },
      { deps: { approver: async () => ({ decision: "approve" }) } },
    );
    const result = await runWithTeacher(runner, { objective: "q", tools: [edit], permissions: { edit: "ask" } });
    expect(result.teacherStats.humanReview).toMatchObject({ count: 1, gates: [{ kind: "ask", decision: "approve" }] });
    expect(result.stats.humanReview.count).toBe(0);
  });
});
