import { fauxText, fauxToolCall, type FauxScriptItem } from "@x/brain-faux";
import type { AutoModeRule } from "@x/classifier-ladder";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { defineSubRunTool } from "./sub-run-tool";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import type { RunEvent, VerdictInfo } from "../vocabulary/events";
import type { ApprovalRequest, Permission, TaskResult } from "../vocabulary/types";
import { classifierAsked, delegate, spy, treeSetup } from "../../test/sub-run-harness";

const ALLOW = fauxText("<block>no</block>", { usage: { input: 200, output: 5 } });
const BLOCK = (why: string) =>
  fauxText(`<block>yes</block><reason>${why}</reason>`, { usage: { input: 200, output: 9 } });
const USER_WORDS = "Clean up the scratch folder.";

const denyWipe: AutoModeRule = {
  id: "no-wipe",
  effect: "deny",
  tool: "shell",
  paths: [{ arg: "path", globs: ["/", "/home/**"], cwd: "/work" }],
  reason: "nothing outside the work tree is deleted",
};
const allowScratch: AutoModeRule = {
  id: "scratch-ok",
  effect: "allow",
  tool: "shell",
  paths: [{ arg: "path", globs: ["/work/scratch/**"], cwd: "/work" }],
};

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const verdicts = (events: RunEvent[]): VerdictInfo[] =>
  events.flatMap((e) =>
    e.type === "verdict" ? [e.outcome] : e.type === "sub_run" && e.event.type === "verdict" ? [e.event.outcome] : [],
  );

function toolResultText(result: TaskResult): string {
  const message = result.messages.find((m) => m.role === "toolResult");
  return message && message.role === "toolResult" ? JSON.stringify(message.content) : "";
}

describe("auto-mode rules in the gate", () => {
  const replies: [string, FauxScriptItem][] = [
    ["allow", ALLOW],
    ["block", BLOCK("risky")],
    ["garbage", fauxText("sure, go ahead")],
  ];
  const permissions: Permission[] = ["allow", "auto", "ask"];
  for (const [name, reply] of replies)
    for (const permission of permissions)
      it(`a deny rule beats a classifier that would answer ${name}, under permission ${permission}`, async () => {
        const shell = spy("shell");
        const asked: ApprovalRequest[] = [];
        const { runner, brains, notices, frames } = treeSetup(
          {
            boss: [fauxToolCall("shell", { path: "../home/me" }), fauxText("done")],
            cls: [reply, reply],
          },
          { approver: async (request) => (asked.push(request), { decision: "approve" }) },
        );
        const stream = runner.streamTask({
          objective: USER_WORDS,
          tools: [shell.tool],
          permissions: { shell: permission },
          autoModeRules: [denyWipe, allowScratch],
        });
        const events = await collect(stream);
        const result = await stream.result;
        expect(shell.calls).toEqual([]);
        expect(brains.cls.calls).toHaveLength(0);
        expect(asked).toEqual([]);
        // The model is told why in one sentence, naming the rule.
        expect(toolResultText(result)).toContain(
          "Blocked by the host's rule no-wipe: nothing outside the work tree is deleted. It was not run",
        );
        expect(verdicts(events)).toEqual([
          {
            verdict: "block",
            source: "rule",
            ruleId: "no-wipe",
            reason: "nothing outside the work tree is deleted",
            station: "leg",
            wallMs: 0,
          },
        ]);
        expect(notices.find((n) => n.code === "auto_mode.blocked")?.message).toBe(
          "Auto mode blocked shell: nothing outside the work tree is deleted — host rule no-wipe.",
        );
        const span = frames.find((f) => f.name === "classification" && f.phase === "end");
        expect(span?.data).toMatchObject({ verdict: "block", source: "rule", ruleId: "no-wipe", calls: 0 });
        // Not a classifier's block: the denial limit did not count it.
        expect(result.stats.classifierCalls).toBe(0);
      });

  it("an allow rule skips the classifier for an auto call, and says so", async () => {
    const shell = spy("shell");
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("shell", { path: "scratch/tmp.txt" }), fauxText("done")],
    });
    const stream = runner.streamTask({
      objective: USER_WORDS,
      tools: [shell.tool],
      defaultPermission: "auto",
      autoModeRules: [allowScratch],
    });
    const events = await collect(stream);
    expect((await stream.result).status).toBe("completed");
    expect(shell.calls).toEqual(["scratch/tmp.txt"]);
    expect(brains.cls.calls).toHaveLength(0);
    expect(verdicts(events)).toEqual([
      { verdict: "allow", source: "rule", ruleId: "scratch-ok", station: "leg", wallMs: 0 },
    ]);
  });

  it("an allow rule never loosens ask or deny", async () => {
    const shell = spy("shell");
    const asked: ApprovalRequest[] = [];
    const { runner } = treeSetup(
      {
        boss: [
          fauxToolCall("shell", { path: "scratch/a" }),
          fauxToolCall("shell", { path: "scratch/b" }),
          fauxText("ok"),
        ],
      },
      { approver: async (request) => (asked.push(request), { decision: "deny", reason: "not now" }) },
    );
    const asks = await runner.runTask({
      objective: USER_WORDS,
      tools: [shell.tool],
      permissions: { shell: "ask" },
      autoModeRules: [allowScratch],
    });
    expect(asked.map((r) => r.kind)).toEqual(["ask", "ask"]);
    expect(shell.calls).toEqual([]);
    expect(asks.status).toBe("completed");
    const { runner: second } = treeSetup({ boss: [fauxToolCall("shell", { path: "scratch/a" }), fauxText("ok")] });
    const denied = await second.runTask({
      objective: USER_WORDS,
      tools: [spy("shell").tool],
      permissions: { shell: "deny" },
      autoModeRules: [allowScratch],
    });
    expect(denied.messages[2]).toMatchObject({ isError: true, details: { error: "forbidden" } });
  });

  it("a child's allow rule skips only its own classifier: the parent's still blocks", async () => {
    const shell = spy("shell", { permission: "auto" });
    const rulesChild = defineSubRunTool({
      name: "delegate",
      description: "Hand a task to a helper",
      input: z.object({ task: z.string() }),
      task: ({ task }) => ({ objective: task, model: "kid", tools: [shell.tool], autoModeRules: [allowScratch] }),
    });
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "wipe scratch" }), fauxText("ok")],
      kid: [fauxToolCall("shell", { path: "scratch/all" }), fauxText("could not")],
      cls: (ctx) => (classifierAsked(ctx).includes(USER_WORDS) ? BLOCK("the user asked for no deletes") : ALLOW),
    });
    const stream = runner.streamTask({ objective: USER_WORDS, tools: [rulesChild] });
    const events = await collect(stream);
    const result = await stream.result;
    expect(shell.calls).toEqual([]);
    expect(brains.cls.calls).toHaveLength(1);
    expect(verdicts(events).map((v) => [v.station, v.source, v.verdict, v.ruleId])).toEqual([
      ["leg", "rule", "allow", "scratch-ok"],
      ["ancestor", "classifier", "block", undefined],
    ]);
    expect(verdicts(events)[1]).toMatchObject({ ancestorRunId: result.runId, model: "cls", attempt: 1 });
  });

  it("a parent's deny rule holds in its sub-runs; a parent's allow rule stands in for its classifier", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "tidy" }), fauxText("ok")],
      kid: [
        fauxToolCall("shell", { path: "/home/me" }),
        fauxToolCall("shell", { path: "/work/scratch/x" }),
        fauxText("done"),
      ],
      cls: [ALLOW],
    });
    const stream = runner.streamTask({
      objective: USER_WORDS,
      tools: [delegate([shell.tool])],
      autoModeRules: [denyWipe, allowScratch],
    });
    const events = await collect(stream);
    const result = await stream.result;
    expect(shell.calls).toEqual(["/work/scratch/x"]);
    // The child's own classifier judged the second call once; the parent's allow rule stood in for the parent's.
    expect(brains.cls.calls).toHaveLength(1);
    expect(verdicts(events).map((v) => [v.station, v.source, v.verdict, v.ruleId])).toEqual([
      ["ancestor", "rule", "block", "no-wipe"],
      ["leg", "classifier", "allow", undefined],
      ["ancestor", "rule", "allow", "scratch-ok"],
    ]);
    expect(verdicts(events)[0]).toMatchObject({ ancestorRunId: result.runId });
  });

  it("rules travel in the park: a deny still blocks after resume; a park with its rules cut is refused", async () => {
    const shell = spy("shell", { permission: "allow" });
    const ask = spy("ask_me", { permission: "ask" });
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("ask_me", { path: "?" }), fauxToolCall("shell", { path: "/home/me" }), fauxText("done")],
      },
      { parkKey: "r".repeat(32), parkTtlMs: 60_000, parkLedger: createMemoryParkLedger() },
    );
    const parked = await runner.runTask({
      objective: USER_WORDS,
      tools: [shell.tool, ask.tool],
      autoModeRules: [denyWipe],
    });
    expect(parked.parked!.spec.autoModeRules).toEqual([denyWipe]);
    const cut = structuredClone(parked.parked!);
    cut.spec.autoModeRules = [];
    await expect(runner.resume(cut, { decision: "approve" }, { tools: [shell.tool, ask.tool] })).rejects.toMatchObject({
      code: "bad_signature",
    });
    const result = await runner.resume(parked.parked!, { decision: "approve" }, { tools: [shell.tool, ask.tool] });
    expect(result.status).toBe("completed");
    expect(ask.calls).toEqual(["?"]);
    expect(shell.calls).toEqual([]);
    const results = result.messages.filter((m) => m.role === "toolResult");
    expect(JSON.stringify(results.at(-1))).toContain("Blocked by the host's rule no-wipe");
  });

  it("a bad rule list is refused before anything runs", async () => {
    const { runner, brains } = treeSetup({ boss: [fauxText("never")] });
    const result = await runner
      .runTask({
        objective: USER_WORDS,
        autoModeRules: [{ ...denyWipe, args: [{ arg: "path", pattern: "(" }] }],
      })
      .catch((error: unknown) => error);
    expect(result).toMatchObject({ code: "schema_invalid" });
    expect(brains.boss.calls).toHaveLength(0);
  });
});
