import { fauxText, fauxToolCall, type FauxResponse } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { type ParkLedger } from "../vocabulary/park-ledger";
import type { ParkedRun } from "../vocabulary/park-schema";
import { main, recorder, roles, setup, texts } from "../../test/harness";

const KEY = "a-test-key-of-enough-length-000";

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return error instanceof ParkedRunError ? error.code : `other: ${String(error)}`;
  }
}

describe("ask with a live approver", () => {
  it("approve ⇒ the call runs; the wait is recorded in humanReview", async () => {
    const { tool, calls } = recorder("deploy");
    const { runner, clock } = setup([fauxToolCall("deploy", { text: "prod" }), fauxText("deployed")], {
      approver: async (request) => {
        expect(request).toMatchObject({ kind: "ask", toolCall: { name: "deploy" } });
        clock.advance(4200);
        return { decision: "approve" };
      },
    });
    const result = await runner.runTask({ objective: "ship", tools: [tool], permissions: { deploy: "ask" } });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "prod" }]);
    expect(result.stats.humanReview).toEqual({
      count: 1,
      totalWaitMs: 4200,
      gates: [{ kind: "ask", waitMs: 4200, decision: "approve" }],
    });
  });

  it("deny ⇒ an error result with the reason; the model goes on", async () => {
    const { tool, calls } = recorder("deploy");
    const { runner } = setup([fauxToolCall("deploy", { text: "prod" }), fauxText("ok, not deploying")], {
      approver: async () => ({ decision: "deny", reason: "freeze week" }),
    });
    const result = await runner.runTask({ objective: "ship", tools: [tool], defaultPermission: "ask" });
    expect(calls).toEqual([]);
    expect(result.status).toBe("completed");
    expect(texts(result.messages)[2]).toContain("freeze week");
  });

  it("a tool's own permission applies when the spec names none; the spec wins", async () => {
    const { tool: base, calls } = recorder("deploy");
    const asking = { ...base, permission: "ask" as const };
    const approve = setup([fauxToolCall("deploy", { text: "a" }), fauxText("x")]);
    const parked = await approve.runner.runTask({ objective: "x", tools: [asking] });
    expect(parked.status).toBe("parked");
    const allowed = setup([fauxToolCall("deploy", { text: "a" }), fauxText("x")]);
    await allowed.runner.runTask({ objective: "x", tools: [asking], permissions: { deploy: "allow" } });
    expect(calls).toHaveLength(1);
  });
});

describe("parking without a live approver", () => {
  const script = (): FauxResponse[] => [
    {
      content: [
        { type: "toolCall", name: "look", arguments: { text: "before" } },
        { type: "toolCall", name: "deploy", arguments: { text: "prod" } },
        { type: "toolCall", name: "look", arguments: { text: "after" } },
      ],
    },
    fauxText("all done"),
  ];

  async function parkOne() {
    const look = recorder("look");
    const deploy = recorder("deploy");
    const env = setup(script(), { parkKey: KEY, parkTtlMs: 60_000 });
    const spec = {
      objective: "ship it",
      tools: [look.tool, deploy.tool],
      permissions: { deploy: "ask" as const },
      history: [{ role: "user" as const, content: "hello" }],
    };
    const parked = await env.runner.runTask(spec);
    return { ...env, look, deploy, spec, parked };
  }

  it("returns parked with a signed, JSON-safe ParkedRun; calls before the gate ran, none after", async () => {
    const { parked, look, deploy } = await parkOne();
    expect(parked.status).toBe("parked");
    expect(parked.terminal).toMatchObject({ code: "awaiting_approval", cause: "approval" });
    expect(look.calls).toEqual([{ text: "before" }]);
    expect(deploy.calls).toEqual([]);
    const park = parked.parked!;
    expect(JSON.parse(JSON.stringify(park))).toEqual(park);
    expect(park.pending).toMatchObject({ toolName: "deploy", arguments: { text: "prod" }, index: 1, kind: "ask" });
  });

  it("resume(approve) runs the call once, finishes the turn's other calls and the run", async () => {
    const { runner, parked, look, deploy, spec, clock } = await parkOne();
    clock.advance(30_000);
    const result = await runner.resume(
      JSON.parse(JSON.stringify(parked.parked)),
      { decision: "approve" },
      { tools: spec.tools },
    );
    expect(result.status).toBe("completed");
    expect(deploy.calls).toEqual([{ text: "prod" }]);
    expect(look.calls).toEqual([{ text: "before" }, { text: "after" }]);
    expect(roles(result.messages)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "toolResult",
      "toolResult",
      "assistant",
    ]);
    expect(texts([...spec.history, ...result.messages])).toEqual([
      "hello",
      "ship it",
      "call:lookcall:deploycall:look",
      "look:before",
      "deploy:prod",
      "look:after",
      "all done",
    ]);
    expect(result.stats.humanReview.gates).toEqual([{ kind: "ask", waitMs: 30_000, decision: "approve" }]);
    expect(result.stats.turns).toBe(2);
  });

  it("resume(deny) answers the call with the reason and goes on", async () => {
    const { runner, parked, deploy, spec } = await parkOne();
    const result = await runner.resume(parked.parked, { decision: "deny", reason: "not today" }, { tools: spec.tools });
    expect(deploy.calls).toEqual([]);
    expect(result.status).toBe("completed");
    expect(texts(result.messages)[3]).toContain("not today");
  });

  it("the park id is claimed in the ledger before the call runs; a ledger that fails means nothing runs", async () => {
    const order: string[] = [];
    const deploy = defineTool({
      name: "deploy",
      description: "",
      input: z.object({ text: z.string() }),
      execute: () => (order.push("execute"), "ok"),
    });
    const ledger: ParkLedger = { claim: async (id) => (order.push(`claim ${id}`), true) };
    const { runner } = setup([fauxToolCall("deploy", { text: "x" }), fauxText("done")], {
      parkKey: KEY,
      parkLedger: ledger,
    });
    const parked = await runner.runTask({ objective: "x", tools: [deploy], defaultPermission: "ask" });
    await runner.resume(parked.parked, { decision: "approve" }, { tools: [deploy] });
    expect(order).toEqual([`claim ${parked.parked!.parkId}`, "execute"]);

    order.length = 0;
    const broken = setup([fauxToolCall("deploy", { text: "x" })], {
      parkKey: KEY,
      parkLedger: { claim: () => Promise.reject(new Error("ledger down")) },
    });
    const again = await broken.runner.runTask({ objective: "x", tools: [deploy], defaultPermission: "ask" });
    await expect(broken.runner.resume(again.parked, { decision: "approve" }, { tools: [deploy] })).rejects.toThrow(
      "ledger down",
    );
    expect(order).toEqual([]);
  });

  it("a resume whose signal is already aborted claims nothing: the park stays unspent and resumes later", async () => {
    const { runner, parked, deploy, spec } = await parkOne();
    const aborted = await runner.resume(
      parked.parked,
      { decision: "approve" },
      { tools: spec.tools, signal: AbortSignal.abort() },
    );
    expect(aborted).toMatchObject({ status: "aborted", terminal: { code: "aborted" } });
    expect(aborted.parked).toEqual(parked.parked);
    expect(deploy.calls).toEqual([]);
    const later = await runner.resume(aborted.parked, { decision: "approve" }, { tools: spec.tools });
    expect(later.status).toBe("completed");
    expect(deploy.calls).toEqual([{ text: "prod" }]);
  });

  it("a run that parks after a tool returned odd output (a BigInt, unreadable content) parks and resumes", async () => {
    const big = defineTool({ name: "big", description: "", input: z.object({}), execute: () => ({ size: 10n }) });
    const bad = defineTool({
      name: "bad",
      description: "",
      input: z.object({}),
      execute: () => ({ content: [{ type: "text", text: 42 }] }),
    });
    for (const odd of [big, bad]) {
      const deploy = recorder("deploy");
      const { runner } = setup([fauxToolCall(odd.name, {}), fauxToolCall("deploy", { text: "x" }), fauxText("done")], {
        parkKey: KEY,
      });
      const parked = await runner.runTask({
        objective: "x",
        tools: [odd, deploy.tool],
        permissions: { deploy: "ask" },
      });
      expect(parked.status).toBe("parked");
      const resumed = await runner.resume(
        JSON.parse(JSON.stringify(parked.parked)),
        { decision: "approve" },
        { tools: [odd, deploy.tool] },
      );
      expect(resumed.status).toBe("completed");
      expect(deploy.calls).toEqual([{ text: "x" }]);
    }
  });

  it("a park whose model stops resolving is not claimed: fails typed, resumes once the catalog is fixed", async () => {
    const deploy = recorder("deploy");
    const before = setup([fauxToolCall("deploy", { text: "x" })], { parkKey: KEY });
    const parked = await before.runner.runTask({
      objective: "x",
      tools: [deploy.tool],
      defaultPermission: "ask",
      model: "backup",
    });
    const ledger = createMemoryParkLedger();
    const renamed = setup([], { parkKey: KEY, parkLedger: ledger, models: { main } });
    const failed = await renamed.runner.resume(parked.parked, { decision: "approve" }, { tools: [deploy.tool] });
    expect(failed).toMatchObject({ status: "failed", terminal: { code: "no_model" } });
    expect(failed.parked).toEqual(parked.parked);
    const fixed = setup([fauxText("done")], { parkKey: KEY, parkLedger: ledger });
    expect((await fixed.runner.resume(failed.parked, { decision: "approve" }, { tools: [deploy.tool] })).status).toBe(
      "completed",
    );
    expect(deploy.calls).toEqual([{ text: "x" }]);
  });

  it("the same park twice ⇒ replayed; the call ran once", async () => {
    const { runner, parked, deploy, spec } = await parkOne();
    await runner.resume(parked.parked, { decision: "approve" }, { tools: spec.tools });
    expect(await refusal(runner.resume(parked.parked, { decision: "approve" }, { tools: spec.tools }))).toBe(
      "replayed",
    );
    expect(deploy.calls).toHaveLength(1);
  });

  it("forged ⇒ bad_signature, newer ⇒ version_unsupported, expired, no tool, junk ⇒ invalid_schema", async () => {
    const { runner, parked, deploy, spec, clock, look } = await parkOne();
    const p = parked.parked!;
    const tampered: ParkedRun = structuredClone(p);
    tampered.pending.arguments = { text: "everything" };
    expect(await refusal(runner.resume(tampered, { decision: "approve" }, { tools: spec.tools }))).toBe(
      "bad_signature",
    );
    expect(await refusal(runner.resume({ ...p, version: 9 }, { decision: "approve" }, { tools: spec.tools }))).toBe(
      "version_unsupported",
    );
    expect(await refusal(runner.resume(p, { decision: "approve" }, { tools: [look.tool] }))).toBe("unknown_tool");
    clock.advance(60_001);
    expect(await refusal(runner.resume(p, { decision: "approve" }, { tools: spec.tools }))).toBe("expired");
    expect(deploy.calls).toEqual([]);
    // A runner with another key refuses it too.
    const other = setup([], { parkKey: "another key entirely" });
    expect(await refusal(other.runner.resume(p, { decision: "approve" }, { tools: spec.tools }))).toBe("bad_signature");
  });

  it("a park signed with the default random key is announced, and resumes in the same runner", async () => {
    const deploy = recorder("deploy");
    const { runner, notices } = setup([fauxToolCall("deploy", { text: "x" }), fauxText("done")]);
    const parked = await runner.runTask({ objective: "x", tools: [deploy.tool], defaultPermission: "ask" });
    expect(notices.map((n) => n.code)).toContain("config.park_key_ephemeral");
    const result = await runner.resume(parked.parked, { decision: "approve" }, { tools: [deploy.tool] });
    expect(result.status).toBe("completed");
  });

  it("an observer stop right after the resumed call still answers the turn's other calls", async () => {
    const { runner, parked, look, spec } = await parkOne();
    const result = await runner.resume(
      parked.parked,
      { decision: "approve" },
      { tools: spec.tools, onToolResult: () => ({ stop: { code: "enough", message: "stop here" } }) },
    );
    expect(result).toMatchObject({ status: "stuck", terminal: { observerCode: "enough" } });
    expect(look.calls).toEqual([{ text: "before" }]);
    expect(roles(result.messages)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult"]);
  });

  it("a short, empty or missing-typed park key and a bad TTL are refused when the runner is made", () => {
    for (const parkKey of ["", "short", new Uint8Array(15), 42 as unknown as string]) {
      expect(() => setup([], { parkKey }), String(parkKey)).toThrow(
        expect.objectContaining({ code: "config.park_key_invalid" }),
      );
    }
    expect(() => setup([], { parkKey: new Uint8Array(16) })).not.toThrow();
    for (const parkTtlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1.5]) {
      expect(() => setup([], { parkKey: KEY, parkTtlMs }), String(parkTtlMs)).toThrow(
        expect.objectContaining({ code: "config.park_ttl_invalid" }),
      );
    }
  });

  it("shared key, no ledger: createRunner refuses the setting (its parks could never be resumed safely)", async () => {
    expect(() => setup([], { parkKey: KEY, parkLedger: undefined })).toThrow(
      expect.objectContaining({ name: "RunnerConfigError", code: "config.park_ledger_required" }),
    );
    // A random key needs no ledger; the host that says per-process is enough passes the memory one.
    expect(() => setup([], { parkLedger: undefined })).not.toThrow();
    const deploy = recorder("deploy");
    const parking = setup([fauxToolCall("deploy", { text: "x" })], { parkKey: KEY });
    const parked = await parking.runner.runTask({ objective: "x", tools: [deploy.tool], defaultPermission: "ask" });
    const accepted = setup([fauxText("done")], { parkKey: KEY, parkLedger: createMemoryParkLedger() });
    expect(
      (await accepted.runner.resume(parked.parked, { decision: "approve" }, { tools: [deploy.tool] })).status,
    ).toBe("completed");
    expect(deploy.calls).toHaveLength(1);
    expect(parking.notices.map((n) => n.code).filter((c) => c.startsWith("config.park"))).toEqual([]);
  });

  it("tools may come from deps.tools when resume gets none", async () => {
    const deploy = recorder("deploy");
    const { runner } = setup([fauxToolCall("deploy", { text: "x" }), fauxText("done")], {
      tools: [deploy.tool],
      parkKey: KEY,
    });
    const parked = await runner.runTask({ objective: "x", tools: [deploy.tool], defaultPermission: "ask" });
    expect((await runner.resume(parked.parked, { decision: "approve" })).status).toBe("completed");
    expect(deploy.calls).toHaveLength(1);
  });
});
