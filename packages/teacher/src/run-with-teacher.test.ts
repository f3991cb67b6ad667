import { createFauxBrain, fauxError, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { runWithTeacher, STUCK_STOP_CODE, TeacherError, type EscalationPolicyInfo } from "./index";
import { advice, editCall, fail, pass, setup, stuck, tools, toolRun } from "../test/harness";

describe("Tier 0 — stuck", () => {
  it("stops the student at the stuck threshold, asks the monitor, and escalates with the failures", async () => {
    const { runner, calls } = setup({
      student: [editCall, editCall, editCall, fauxText("fixed it by reading first")],
      monitor: [stuck(true)],
      teacher: [advice({ correction: "edit is denied here", nextStep: "read the file, then write a copy" })],
      verifier: [pass()],
    });
    const { edit, read, edits } = tools();
    const result = await runWithTeacher(runner, { objective: "fix the config", tools: [edit, read], maxTurns: 20 });

    // Stopped after the third failure, not left to burn its 20 turns.
    expect(edits).toHaveLength(3);
    expect(calls("student")).toHaveLength(4);
    expect(calls("monitor")).toHaveLength(1);
    expect(JSON.stringify(calls("monitor")[0]!.context.messages)).toContain("permission denied: file-2");
    expect(result.status).toBe("completed");
    expect(result.output).toBe("fixed it by reading first");
    expect(result.escalations).toEqual([
      {
        attempt: 1,
        trigger: "stuck",
        teacher: {
          correction: "edit is denied here",
          nextStep: "read the file, then write a copy",
          takeover: false,
          confidence: 2,
        },
        tookOver: false,
      },
    ]);
    const brief = JSON.stringify(calls("teacher")[0]!.context.messages);
    expect(brief).toContain("fix the config");
    expect(brief).toContain("edit → ERROR");
  });

  it("a monitor that says 'not stuck' lets the run go on until the hard override forces escalation", async () => {
    const { runner, calls } = setup({
      student: [editCall, editCall, editCall, editCall, editCall, fauxText("ok")],
      monitor: [stuck(false)],
      teacher: [advice({ correction: "stop editing" })],
      verifier: [pass()],
    });
    const { edit, edits } = tools();
    const result = await runWithTeacher(runner, { objective: "fix", tools: [edit] });
    expect(calls("monitor")).toHaveLength(1);
    expect(edits).toHaveLength(5);
    expect(result.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
    expect(result.status).toBe("completed");
  });

  it("stuckThreshold and stuckHardOverride are honoured; with no monitor the threshold escalates at once", async () => {
    const { runner, calls } = setup({
      student: [editCall, editCall, fauxText("ok")],
      teacher: [advice({ correction: "c" })],
      verifier: [pass()],
    });
    const { edit, edits } = tools();
    const result = await runWithTeacher(
      runner,
      { objective: "fix", tools: [edit] },
      { stuckThreshold: 2, useStuckMonitor: false },
    );
    expect(edits).toHaveLength(2);
    expect(calls("monitor")).toHaveLength(0);
    expect(result.escalations).toHaveLength(1);

    const second = setup({
      student: [editCall, fauxText("ok")],
      monitor: [stuck(false)],
      teacher: [advice({ correction: "c" })],
      verifier: [pass()],
    });
    const t = tools();
    const forced = await runWithTeacher(
      second.runner,
      { objective: "fix", tools: [t.edit] },
      { stuckThreshold: 3, stuckHardOverride: 1 },
    );
    expect(t.edits).toHaveLength(1);
    expect(second.calls("monitor")).toHaveLength(0);
    expect(forced.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
  });

  it("an unreadable monitor reply leaves the suspicion standing", async () => {
    const { runner } = setup({
      student: [editCall, editCall, editCall, fauxText("ok")],
      monitor: [fauxText("hmm, hard to say")],
      teacher: [advice({ correction: "c" })],
      verifier: [pass()],
    });
    const result = await runWithTeacher(runner, { objective: "fix", tools: [tools().edit] });
    expect(result.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
  });

  it("the host's own observer runs first and its stop is returned, never escalated", async () => {
    const { runner, calls } = setup({ student: [editCall] });
    const result = await runWithTeacher(runner, {
      objective: "fix",
      tools: [tools().edit],
      onToolResult: () => ({ stop: { code: "host.enough", message: "host stop" } }),
    });
    expect(result.status).toBe("stuck");
    expect(result.terminal.observerCode).toBe("host.enough");
    expect(result.escalations).toEqual([]);
    expect(calls("teacher")).toHaveLength(0);
  });

  it("a throwing host observer does not blind the stall watch", async () => {
    const { runner } = setup({
      student: [editCall, editCall, editCall, fauxText("ok")],
      monitor: [stuck(true)],
      teacher: [advice({ correction: "c" })],
      verifier: [pass()],
    });
    const result = await runWithTeacher(runner, {
      objective: "fix",
      tools: [tools().edit],
      onToolResult: () => {
        throw new Error("host observer bug");
      },
    });
    expect(result.escalations.map((e) => e.trigger)).toEqual(["stuck"]);
  });

  it("our stop carries its own observer code", async () => {
    const { runner } = setup(
      { student: [editCall, editCall, editCall] },
      { fallback: { teacher: advice({ correction: "c" }), student: editCall, monitor: stuck(true) } },
    );
    const result = await runWithTeacher(runner, { objective: "fix", tools: [tools().edit] }, { maxEscalations: 0 });
    expect(result).toMatchObject({
      status: "stuck",
      terminal: { code: "observer_stop", observerCode: STUCK_STOP_CODE },
    });
  });
});

describe("Tier 1 — verify", () => {
  it("a failing verdict escalates; the corrected answer passes", async () => {
    const { runner, calls } = setup({
      student: [fauxText("42"), fauxText("41")],
      verifier: [fail("off by one"), pass()],
      teacher: [advice({ correction: "you counted the fence posts twice" })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "how many posts?" }));
    expect(result.status).toBe("completed");
    expect(result.output).toBe("41");
    expect(result.escalations.map((e) => [e.trigger, e.tookOver])).toEqual([["verify-fail", false]]);
    expect(calls("verifier")).toHaveLength(2);
    expect(JSON.stringify(calls("verifier")[0]!.context.messages)).toContain("42");
    expect(JSON.stringify(calls("teacher")[0]!.context.messages)).toContain("off by one");
  });

  it("the verifier runs on helperModel when given, else on the student's model", async () => {
    const a = setup({ student: [fauxText("x")], verifier: [pass()] });
    await runWithTeacher(a.runner, toolRun({ objective: "q", model: "student" }));
    expect(a.calls("verifier")[0]!.model.id).toBe("student");
    const b = setup({ student: [fauxText("x")], verifier: [pass()] });
    await runWithTeacher(b.runner, toolRun({ objective: "q" }), { helperModel: "helper" });
    expect(b.calls("verifier")[0]!.model.id).toBe("helper");
  });

  it("verifierSamples ≥ 2 votes by majority", async () => {
    const passing = setup({ student: [fauxText("x")], verifier: [fail(), pass(), pass()] });
    const kept = await runWithTeacher(passing.runner, toolRun({ objective: "q" }), { verifierSamples: 3 });
    expect(passing.calls("verifier")).toHaveLength(3);
    expect(kept.escalations).toEqual([]);

    const failing = setup({
      student: [fauxText("x"), fauxText("y")],
      verifier: [fail(), pass(), fail(), pass(), pass(), pass()],
      teacher: [advice({ correction: "c" })],
    });
    const escalated = await runWithTeacher(failing.runner, toolRun({ objective: "q" }), { verifierSamples: 3 });
    expect(escalated.escalations.map((e) => e.trigger)).toEqual(["verify-fail"]);
    expect(escalated.output).toBe("y");
  });

  it("verifyOutput: false trusts a completed output", async () => {
    const { runner, calls } = setup({ student: [fauxText("x")] });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { verifyOutput: false });
    expect(result.status).toBe("completed");
    expect(calls("verifier")).toHaveLength(0);
  });

  it("a verifier with no readable verdict is no evidence: the output stands", async () => {
    const { runner, calls } = setup({ student: [fauxText("x")], verifier: [fauxText("I cannot tell")] });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }));
    expect(result.escalations).toEqual([]);
    expect(calls("teacher")).toHaveLength(0);
  });

  it("a failed terminal triggers escalation", async () => {
    const { runner } = setup({
      student: [fauxError("bad_request", "malformed"), fauxText("ok")],
      teacher: [advice({ correction: "retry plainly" })],
      verifier: [pass()],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }));
    expect(result.escalations.map((e) => e.trigger)).toEqual(["failed"]);
    expect(result.status).toBe("completed");
  });

  it.each(["auth", "network", "rate_limited", "overloaded"] as const)(
    "a student failed on %s does not escalate: no advice fixes the provider",
    async (errorKind) => {
      const { runner, calls } = setup({
        student: Array.from({ length: 6 }, () => fauxError(errorKind, `${errorKind} failure`)),
        teacher: [advice({ correction: "retry plainly" })],
        verifier: [pass()],
      });
      const result = await runWithTeacher(runner, { objective: "q" });
      expect(result.status).toBe("failed");
      expect(result.terminal.errorKind).toBe(errorKind);
      expect(result.escalations).toEqual([]);
      expect(calls("teacher")).toHaveLength(0);
    },
  );

  it("a blocked terminal triggers escalation", async () => {
    const classifier = createFauxBrain(() => fauxText("<block>yes</block><reason>too risky</reason>"), {
      api: "faux-cls",
    });
    const { runner } = setup(
      {
        student: [
          fauxToolCall("edit", { path: "a" }),
          fauxToolCall("edit", { path: "b" }),
          fauxText("did it another way"),
        ],
        teacher: [advice({ correction: "edit is not allowed; explain instead" })],
        verifier: [pass()],
      },
      {
        brains: [classifier],
        models: { cls: fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" }) },
        roles: { classifier: "cls" },
        deps: { autoMode: { maxConsecutiveDenials: 2 } },
      },
    );
    const result = await runWithTeacher(runner, { objective: "q", tools: [tools().edit], defaultPermission: "auto" });
    expect(result.escalations.map((e) => e.trigger)).toEqual(["blocked"]);
    expect(result.output).toBe("did it another way");
    expect(classifier.calls).toHaveLength(2);
  });
});

describe("escalationPolicy", () => {
  it("false skips the escalation and returns the unresolved result", async () => {
    const seen: EscalationPolicyInfo[] = [];
    const { runner, calls } = setup({ student: [fauxText("42")], verifier: [fail("wrong sum")] });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      escalationPolicy: (info) => (seen.push(info), false),
    });
    expect(calls("teacher")).toHaveLength(0);
    expect(result.escalations).toEqual([]);
    expect(result.output).toBe("42");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      trigger: "verify-fail",
      attempt: 1,
      verifyReason: "wrong sum",
      result: { output: "42" },
    });
    expect(seen[0]!.recent.at(-1)).toContain("42");
  });

  it("a throwing or rejecting policy escalates (fails open)", async () => {
    for (const policy of [
      () => {
        throw new Error("policy bug");
      },
      () => Promise.reject(new Error("policy down")),
    ]) {
      const { runner, calls } = setup({
        student: [fauxText("42"), fauxText("41")],
        verifier: [fail(), pass()],
        teacher: [advice({ correction: "c" })],
      });
      const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { escalationPolicy: policy });
      expect(calls("teacher")).toHaveLength(1);
      expect(result.output).toBe("41");
    }
  });
});

describe("configuration", () => {
  it("an invalid option throws a typed error before anything runs", async () => {
    const { runner, brain } = setup();
    await expect(runWithTeacher(runner, toolRun({ objective: "q" }), { maxEscalations: -1 })).rejects.toBeInstanceOf(
      TeacherError,
    );
    expect(brain.calls).toHaveLength(0);
  });
});
