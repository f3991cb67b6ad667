import { fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import type { RunEvent, VerdictInfo } from "../vocabulary/events";
import type { ApprovalDecision, ApprovalRequest } from "../vocabulary/types";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { spy, treeSetup } from "../../test/sub-run-harness";

const ALLOW = fauxText("<block>no</block>", { usage: { input: 200, output: 5 } });
const BLOCK = (why: string) =>
  fauxText(`<block>yes</block><reason>${why}</reason>`, { usage: { input: 200, output: 9 } });
const USER_WORDS = "Tidy the build folder.";

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const verdicts = (events: RunEvent[]): VerdictInfo[] =>
  events.flatMap((e) => (e.type === "verdict" ? [e.outcome] : []));

describe("the same call, the same verdict", () => {
  it("an identical call later reuses the first ruling, recorded as reused, with no classifier call", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, brains, notices } = treeSetup({
      boss: [
        fauxToolCall("shell", { path: "build/cache" }),
        fauxToolCall("shell", { path: "build/cache" }),
        fauxToolCall("shell", { path: "build/other" }),
        fauxText("done"),
      ],
      // A classifier that would flip on the second ask: reuse must not let it.
      cls: [BLOCK("deletes a cache the user did not name"), ALLOW, ALLOW],
    });
    const stream = runner.streamTask({ objective: USER_WORDS, tools: [shell.tool] });
    const events = await collect(stream);
    const result = await stream.result;
    expect(shell.calls).toEqual(["build/other"]);
    expect(brains.cls.calls).toHaveLength(2);
    const [first, again, other] = verdicts(events);
    expect(first).toMatchObject({ source: "classifier", verdict: "block", model: "cls", attempt: 1 });
    expect(again).toEqual({
      verdict: "block",
      source: "reused",
      reason: "deletes a cache the user did not name",
      model: "cls",
      attempt: 1,
      station: "leg",
      wallMs: 0,
    });
    expect(other).toMatchObject({ source: "classifier", verdict: "allow" });
    expect(notices.filter((n) => n.code === "auto_mode.blocked").map((n) => n.message)).toEqual([
      "Auto mode blocked shell: deletes a cache the user did not name — classifier cls (leg station, attempt 1).",
      "Auto mode blocked shell: deletes a cache the user did not name — classifier cls (leg station, attempt 1); " +
        "reused from the identical call earlier in this run.",
    ]);
    expect(result.stats.classifierCalls).toBe(2);
  });

  it("a ruling survives a park: the resumed run reuses it for the identical call", async () => {
    const shell = spy("shell", { permission: "auto" });
    const ask = spy("ask_me", { permission: "ask" });
    const { runner, brains } = treeSetup(
      {
        boss: [
          fauxToolCall("shell", { path: "build/a" }),
          fauxToolCall("ask_me", { path: "?" }),
          fauxToolCall("shell", { path: "build/a" }),
          fauxText("done"),
        ],
        cls: [ALLOW, BLOCK("would flip")],
      },
      { parkKey: "k".repeat(32), parkTtlMs: 60_000, parkLedger: createMemoryParkLedger() },
    );
    const parked = await runner.runTask({ objective: USER_WORDS, tools: [shell.tool, ask.tool] });
    expect(parked.status).toBe("parked");
    expect(parked.parked!.state.autoModeRulings).toHaveLength(1);
    const result = await runner.resume(parked.parked!, { decision: "approve" }, { tools: [shell.tool, ask.tool] });
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["build/a", "build/a"]);
    expect(brains.cls.calls).toHaveLength(1);
  });
});

describe("appeal", () => {
  function appealSetup(answers: (ApprovalDecision | "unavailable")[], maxConsecutiveDenials = 2) {
    const shell = spy("shell", { permission: "auto" });
    const requests: ApprovalRequest[] = [];
    const env = treeSetup(
      {
        boss: [
          fauxToolCall("shell", { path: "a" }),
          fauxToolCall("shell", { path: "b" }),
          fauxToolCall("shell", { path: "c" }),
          fauxText("done"),
        ],
        cls: [BLOCK("not asked for"), BLOCK("not asked for"), BLOCK("not asked for")],
      },
      {
        autoMode: { appeal: true, maxConsecutiveDenials },
        approver: async (request) => {
          requests.push(request);
          return answers.shift() ?? "unavailable";
        },
      },
    );
    return { ...env, shell, requests };
  }

  it("a person overrules a block: the call runs, recorded as a person's decision, not counted", async () => {
    const { runner, shell, requests } = appealSetup([
      { decision: "approve" },
      { decision: "approve" },
      { decision: "approve" },
    ]);
    const stream = runner.streamTask({ objective: USER_WORDS, tools: [shell.tool] });
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["a", "b", "c"]);
    expect(requests.map((r) => [r.kind, r.reason])).toEqual([
      ["appeal", "not asked for"],
      ["appeal", "not asked for"],
      ["appeal", "not asked for"],
    ]);
    expect(events.filter((e) => e.type === "approval").map((e) => e.type === "approval" && e.decision)).toEqual([
      "approve",
      "approve",
      "approve",
    ]);
    expect(result.stats.humanReview.gates.map((g) => g.kind)).toEqual(["appeal", "appeal", "appeal"]);
  });

  it("the denial limit counts only blocks a person upheld", async () => {
    const { runner, shell, requests } = appealSetup([
      { decision: "deny", reason: "agreed" },
      { decision: "deny", reason: "agreed" },
      { decision: "approve" },
    ]);
    const result = await runner.runTask({ objective: USER_WORDS, tools: [shell.tool] });
    // Two upheld blocks trip a limit of 2: the third call goes to the person as the denial limit, unclassified.
    expect(requests.map((r) => r.kind)).toEqual(["appeal", "appeal", "denial_limit"]);
    expect(shell.calls).toEqual(["c"]);
    expect(result.status).toBe("completed");
  });

  it("with no person reachable, an appeal parks; resume(approve) runs the call once", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner } = treeSetup(
      { boss: [fauxToolCall("shell", { path: "a" }), fauxText("done")], cls: [BLOCK("not asked for")] },
      { autoMode: { appeal: true }, parkKey: "k".repeat(32), parkTtlMs: 60_000, parkLedger: createMemoryParkLedger() },
    );
    const parked = await runner.runTask({ objective: USER_WORDS, tools: [shell.tool] });
    expect(parked.status).toBe("parked");
    expect(parked.parked!.pending).toMatchObject({ kind: "appeal", reason: "not asked for", toolName: "shell" });
    const result = await runner.resume(
      JSON.parse(JSON.stringify(parked.parked)),
      { decision: "approve" },
      {
        tools: [shell.tool],
      },
    );
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["a"]);
  });
});
