import { fauxText, fauxToolCall } from "@x/brain-faux";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage, type AssistantMessage, type Brain } from "@x/llm-types";
import { afterAll, describe, expect, it } from "vitest";
import { createFileParkLedger } from "../effects/park-ledgers";
import { recorder, setup } from "../../test/harness";

// JSON from outside — a park or checkpoint handed back, a brain's tool-call arguments — is bounded
// in depth and size before anything recursive reads it: refused typed, nothing run or consumed.

const KEY = "a-test-key-of-enough-length-000";
const dir = mkdtempSync(join(tmpdir(), "x-park-bounds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`) as unknown;

async function parkOne(ledgerDir = join(dir, "ledger")) {
  const deploy = recorder("deploy");
  const env = setup([fauxToolCall("deploy", { text: "prod" }), fauxText("done")], {
    parkKey: KEY,
    parkLedger: createFileParkLedger(ledgerDir),
  });
  const parked = await env.runner.runTask({ objective: "ship", tools: [deploy.tool], defaultPermission: "ask" });
  return { ...env, deploy, parked: parked.parked! };
}

describe("a park from outside is bounded before it is read", () => {
  it("5,000 levels of nesting (~25 KB) ⇒ ParkedRunError invalid_schema (value or JSON), no RangeError", async () => {
    const { runner, deploy, parked } = await parkOne();
    const hostile = { ...parked, pending: { ...parked.pending, arguments: { text: nested(5000) } } };
    // 5,000 levels is 25 KB of JSON text: small, yet deep enough to overflow recursive code.
    expect(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`.length).toBeGreaterThan(25_000);
    for (const raw of [hostile, `{"kind":"x.parked_run","deep":${"[".repeat(5000)}${"]".repeat(5000)}}`]) {
      await expect(runner.resume(raw, { decision: "approve" }, { tools: [deploy.tool] })).rejects.toMatchObject({
        name: "ParkedRunError",
        code: "invalid_schema",
        message: expect.stringContaining("nests deeper than 64 levels"),
      });
    }
    expect(deploy.calls).toEqual([]);
    // Nothing was consumed: the genuine park still resumes.
    expect((await runner.resume(parked, { decision: "approve" }, { tools: [deploy.tool] })).status).toBe("completed");
    expect(deploy.calls).toHaveLength(1);
  });

  it("a checkpoint nested too deep is refused the same way", async () => {
    const { runner } = setup([fauxText("done")], { parkKey: KEY });
    await expect(runner.continueRun({ kind: "x.run_checkpoint", deep: nested(5000) })).rejects.toMatchObject({
      name: "ParkedRunError",
      code: "invalid_schema",
      message: expect.stringContaining("nests deeper"),
    });
  });
});

describe("tool-call arguments from a brain that is not built on brain-kit are bounded too", () => {
  it("arguments 5,000 levels deep ⇒ a provider failure (retried, then model_error), never a RangeError", async () => {
    const deep = nested(5000) as Record<string, unknown>;
    const write = recorder("write");
    const brain: Brain = {
      api: "faux",
      stream: (model) => {
        const message: AssistantMessage = {
          role: "assistant",
          content: [{ type: "toolCall", id: "c1", name: "write", arguments: deep }],
          api: model.api,
          provider: model.provider,
          model: model.id,
          usage: emptyUsage(),
          stopReason: "toolUse",
          timestamp: 0,
        };
        return { [Symbol.asyncIterator]: async function* () {}, result: async () => message };
      },
    };
    const { runner } = setup([], { brains: [brain], retry: { maxRetries: 1 } });
    const result = await runner.runTask({ objective: "x", tools: [write.tool] });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "model_error", errorKind: "provider" } });
    expect(result.terminal.message).toContain("nests deeper than 32 levels");
    expect(write.calls).toEqual([]);
  });
});
