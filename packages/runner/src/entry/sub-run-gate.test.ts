import { fauxError, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineSubRunTool } from "../loop/sub-run-tool";
import type { RunEvent } from "../vocabulary/events";
import type { ApprovalRequest } from "../vocabulary/types";
import { classifierAsked, delegate, spy, treeSetup } from "../../test/sub-run-harness";

const ALLOW = fauxText("<block>no</block>", { usage: { input: 200, output: 5 } });
const BLOCK = (why: string) =>
  fauxText(`<block>yes</block><reason>${why}</reason>`, { usage: { input: 200, output: 9 } });
const USER_WORDS = "Tidy the build folder, but never touch the database.";

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function childEvents(events: RunEvent[]): RunEvent[] {
  return events.flatMap((e) => (e.type === "sub_run" ? [e.event] : []));
}

describe("sub-run gating", () => {
  it("policy only narrows: parent asks ⇒ child asks though it says allow; the approver sees the path", async () => {
    const write = spy("write");
    const requests: ApprovalRequest[] = [];
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "write the notes" }), fauxText("done")],
        kid: [fauxToolCall("write", { path: "NOTES.md" }), fauxText("written")],
      },
      {
        approver: async (request) => {
          requests.push(request);
          return { decision: "approve" };
        },
      },
    );
    const child = delegate([write.tool]);
    const result = await runner.runTask({
      objective: "notes please",
      tools: [child, write.tool],
      permissions: { write: "ask" },
    });
    expect(result.status).toBe("completed");
    expect(write.calls).toEqual(["NOTES.md"]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      kind: "ask",
      toolCall: { name: "write", arguments: { path: "NOTES.md" } },
      path: [{ runId: result.runId, toolName: "delegate" }],
    });
    expect(result.stats.humanReview.count).toBe(1);
  });

  it("policy only narrows: a tool the parent does not have follows the parent's default permission", async () => {
    const drop = spy("drop_table", { permission: "allow" });
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "clean up" }), fauxText("ok")],
      kid: [fauxToolCall("drop_table", { path: "users" }), fauxText("dropped")],
      cls: () => ALLOW,
    });
    const result = await runner.runTask({
      objective: USER_WORDS,
      tools: [delegate([drop.tool])],
      defaultPermission: "auto",
    });
    // The delegate call itself was auto (one leg classification), and so was the child's call (leg + ancestor).
    expect(brains.cls.calls.length).toBe(3);
    expect(result.status).toBe("completed");
    expect(drop.calls).toEqual(["users"]);
  });

  it("policy only narrows: parent denies ⇒ child denies (not offered, never run), though it allows", async () => {
    const drop = spy("drop_table", { permission: "allow" });
    const look = spy("look", { permission: "allow" });
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "clean up" }), fauxText("ok")],
      kid: [fauxToolCall("drop_table", { path: "users" }), fauxToolCall("look", { path: "users" }), fauxText("done")],
    });
    const child = defineSubRunTool({
      name: "delegate",
      description: "Hand a task to a helper",
      input: z.object({ task: z.string() }),
      task: ({ task }) => ({
        objective: task,
        model: "kid",
        tools: [drop.tool, look.tool],
        permissions: { drop_table: "allow" },
      }),
    });
    const result = await runner.runTask({
      objective: USER_WORDS,
      tools: [child],
      permissions: { drop_table: "deny" },
    });
    expect(result.status).toBe("completed");
    expect(drop.calls).toEqual([]);
    expect(look.calls).toEqual(["users"]);
    expect(brains.kid.calls[0]!.context.tools?.map((tool) => tool.name)).toEqual(["look"]);
    const kidResult = result.subRuns![0]!.result;
    expect(kidResult.messages[2]).toMatchObject({ isError: true, details: { error: "forbidden" } });
  });

  it("policy only narrows: a grandparent's default deny holds two levels down for a grandchild-only tool", async () => {
    const drop = spy("drop_table", { permission: "allow" });
    const { runner } = treeSetup({
      boss: [fauxToolCall("outer", { task: "clean up" }), fauxText("ok")],
      kid: (ctx) =>
        ctx.context.tools?.some((tool) => tool.name === "inner")
          ? ctx.context.messages.some((m) => m.role === "toolResult")
            ? fauxText("delegated")
            : fauxToolCall("inner", { task: "drop it" })
          : ctx.context.messages.some((m) => m.role === "toolResult")
            ? fauxText("tried")
            : fauxToolCall("drop_table", { path: "users" }),
    });
    const inner = defineSubRunTool({
      name: "inner",
      description: "Hand a task down again",
      input: z.object({ task: z.string() }),
      task: ({ task }) => ({ objective: task, model: "kid", tools: [drop.tool], defaultPermission: "allow" }),
    });
    const outer = defineSubRunTool({
      name: "outer",
      description: "Hand a task to a helper",
      input: z.object({ task: z.string() }),
      permission: "allow",
      task: ({ task }) => ({ objective: task, model: "kid", tools: [inner] }),
    });
    // The top names the delegating tools it allows; everything else it forbids, at every depth.
    const result = await runner.runTask({
      objective: USER_WORDS,
      tools: [outer],
      permissions: { inner: "allow" },
      defaultPermission: "deny",
    });
    expect(result.status).toBe("completed");
    expect(drop.calls).toEqual([]);
    const grandchild = result.subRuns![0]!.result.subRuns![0]!.result;
    expect(grandchild.messages[2]).toMatchObject({ isError: true, details: { error: "forbidden" } });
  });

  it("a child's auto call its classifier allows but the parent's frozen classifier blocks does not run", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, brains, frames } = treeSetup({
      boss: [
        fauxToolCall("delegate", { task: "Free disk space: drop the cache table in the database." }),
        fauxText("ok"),
      ],
      kid: [fauxToolCall("shell", { path: "psql -c 'drop table cache'" }), fauxText("could not")],
      // The child's own classifier sees the child's objective (written by the parent model) as the
      // intent and allows; the parent's sees the user's own words and blocks.
      cls: (ctx) =>
        classifierAsked(ctx).includes("never touch the database")
          ? BLOCK("the user said never touch the database")
          : ALLOW,
    });
    const stream = runner.streamTask({ objective: USER_WORDS, tools: [delegate([shell.tool])] });
    const events = await collect(stream);
    const result = await stream.result;
    expect(shell.calls).toEqual([]);
    expect(brains.cls.calls).toHaveLength(2);
    const verdicts = childEvents(events).filter((e) => e.type === "verdict");
    expect(verdicts.map((v) => v.type === "verdict" && [v.outcome.station, v.outcome.verdict])).toEqual([
      ["leg", "allow"],
      ["ancestor", "block"],
    ]);
    expect(verdicts[1]).toMatchObject({ outcome: { ancestorRunId: result.runId } });
    const child = result.subRuns![0]!.result;
    expect(child.messages[2]).toMatchObject({ isError: true, details: { error: "blocked" } });
    expect(JSON.stringify(child.messages[2])).toContain("ancestor run");
    const stations = frames
      .filter((f) => f.name === "classification" && f.phase === "end")
      .map((f) => [f.data.station, f.data.verdict]);
    expect(stations).toEqual([
      ["leg", "allow"],
      ["ancestor", "block"],
    ]);
    expect(frames.filter((f) => f.name === "auto_mode.classified").map((f) => f.data.station)).toEqual([
      "leg",
      "ancestor",
    ]);
  });

  it("an ancestor classifier that cannot answer asks the live approver; a notice names station ancestor", async () => {
    const shell = spy("shell", { permission: "auto" });
    const requests: ApprovalRequest[] = [];
    const { runner, notices } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "list the build folder" }), fauxText("ok")],
        kid: [fauxToolCall("shell", { path: "ls build" }), fauxText("listed")],
        cls: (ctx) => (classifierAsked(ctx).includes("never touch") ? fauxError("overloaded", "busy") : ALLOW),
      },
      {
        retry: { maxRetries: 0 },
        autoMode: { classifierFallback: "none" },
        approver: async (request) => {
          requests.push(request);
          return { decision: "approve" };
        },
      },
    );
    const result = await runner.runTask({ objective: USER_WORDS, tools: [delegate([shell.tool])] });
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["ls build"]);
    expect(requests).toEqual([
      expect.objectContaining({ kind: "auto_unavailable", toolCall: expect.objectContaining({ name: "shell" }) }),
    ]);
    const unavailable = notices.filter((n) => n.code === "classifier.unavailable");
    expect(unavailable).toHaveLength(1);
    expect(unavailable[0]!.detail).toMatchObject({ station: "ancestor", disposition: "asked", toolName: "shell" });
    expect(unavailable[0]!.message).toContain("parent run's");
  });

  it("an ancestor classifier that cannot answer, no live approver: refused, no park, station ancestor", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, notices } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "list the build folder" }), fauxText("ok")],
        kid: [fauxToolCall("shell", { path: "ls build" }), fauxText("could not list")],
        cls: (ctx) => (classifierAsked(ctx).includes("never touch") ? fauxError("overloaded", "busy") : ALLOW),
      },
      { retry: { maxRetries: 0 }, autoMode: { classifierFallback: "none" } },
    );
    const result = await runner.runTask({ objective: USER_WORDS, tools: [delegate([shell.tool])] });
    expect(result.status).toBe("completed");
    expect(result.parked).toBeUndefined();
    expect(shell.calls).toEqual([]);
    const child = result.subRuns![0]!.result;
    expect(child.messages[2]).toMatchObject({ isError: true, details: { error: "blocked" } });
    const unavailable = notices.filter((n) => n.code === "classifier.unavailable");
    expect(unavailable.map((n) => n.detail)).toEqual([
      expect.objectContaining({ station: "ancestor", disposition: "denied", toolName: "shell" }),
    ]);
  });

  it("an ancestor's main model answering for its seat is marked fallback, like the leg's verdict, span", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, frames } = treeSetup(
      {
        // The boss model is the ancestor's main model: its frozen classifier's ladder falls back to it.
        boss: [fauxToolCall("delegate", { task: "list the build folder" }), ALLOW, fauxText("ok")],
        kid: [fauxToolCall("shell", { path: "ls build" }), fauxText("listed")],
        cls: (ctx) => (classifierAsked(ctx).includes("never touch") ? fauxError("overloaded", "busy") : ALLOW),
      },
      { retry: { maxRetries: 0 } },
    );
    const stream = runner.streamTask({ objective: USER_WORDS, tools: [delegate([shell.tool])] });
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["ls build"]);
    const verdicts = childEvents(events).flatMap((e) => (e.type === "verdict" ? [e.outcome] : []));
    expect(verdicts.map((v) => [v.station, v.verdict, v.model, v.fallback ?? false])).toEqual([
      ["leg", "allow", "cls", false],
      ["ancestor", "allow", "boss", true],
    ]);
    // One piece reports both stations: the same fields but the ancestor's run id and the fallback mark.
    const fields = (o: object) =>
      Object.keys(o)
        .filter((k) => k !== "ancestorRunId" && k !== "fallback")
        .sort();
    expect(fields(verdicts[1]!)).toEqual(fields(verdicts[0]!));
    const ends = frames.filter((f) => f.name === "classification" && f.phase === "end");
    expect(ends.map((f) => [f.data.station, f.data.fallback ?? false])).toEqual([
      ["leg", false],
      ["ancestor", true],
    ]);
    expect(fields(ends[1]!.data)).toEqual(fields(ends[0]!.data));
  });

  it("blocks in a child count toward the child's denial limit, not the parent's", async () => {
    const shell = spy("shell", { permission: "auto" });
    const { runner, brains } = treeSetup(
      {
        boss: [
          fauxToolCall("delegate", { task: "clean up" }),
          fauxToolCall("shell", { path: "du -sh build" }),
          fauxText("ok"),
        ],
        kid: [
          fauxToolCall("shell", { path: "rm -rf /" }),
          fauxToolCall("shell", { path: "rm -rf /*" }),
          fauxText("never reached"),
        ],
        cls: (ctx) => (classifierAsked(ctx).includes("rm -rf") ? BLOCK("destroys the machine") : ALLOW),
      },
      { autoMode: { maxConsecutiveDenials: 2 } },
    );
    const result = await runner.runTask({ objective: USER_WORDS, tools: [delegate([shell.tool]), shell.tool] });
    const child = result.subRuns![0]!.result;
    expect(child.status).toBe("blocked");
    expect(child.terminal.code).toBe("denial_limit");
    // The parent's own auto call is still classified (its limit untouched) and runs.
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["du -sh build"]);
    expect(brains.cls.calls.length).toBe(3);
  });
});
