import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import { afterAll, describe, expect, it } from "vitest";
import { systemClock } from "../effects/clock";
import { createFileParkLedger } from "../effects/park-ledgers";
import type { ParkedRun } from "../vocabulary/park-schema";
import { pendingApproval } from "./sub-run-park";
import type { TaskResult } from "../vocabulary/types";
import { treeSetup } from "../../test/sub-run-harness";
import { texts } from "../../test/harness";
import { treeTools } from "../../test/tree-tools";
import { runChild } from "../../test/run-child";

const dir = mkdtempSync(join(tmpdir(), "x-tree-park-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "a-shared-key-for-the-whole-tree";
const countFile = join(dir, "count.txt");

type ChildOutput = { ok: true; result: TaskResult } | { ok: false; code: string };

function resumeInProcess(park: unknown, name: string): ChildOutput {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(park));
  return runChild<ChildOutput>("resume-tree-child.ts", [file, join(dir, "ledger"), countFile, KEY]);
}

const deployments = () => readFileSync(countFile, "utf8").trim().split("\n").filter(Boolean);

describe("a tree of sub-runs parks as one value", () => {
  it("3 levels park on a grandchild ask; resumed elsewhere runs once; replay, tamper, inner park refused", async () => {
    writeFileSync(countFile, "");
    const { top } = treeTools(countFile);
    const { runner, brains } = treeSetup(
      {
        boss: [fauxToolCall("release", { version: "2.0" }, { text: "Releasing." })],
        kid: [fauxToolCall("ship", { service: "api" }), fauxToolCall("deploy", { target: "api-prod" })],
      },
      { parkKey: KEY, parkLedger: createFileParkLedger(join(dir, "ledger")), clock: systemClock },
    );
    const first = await runner.runTask({ objective: "release 2.0 to prod", tools: [top] });
    expect(first.status).toBe("parked");
    expect(first.terminal.message).toBe('"deploy" waits for a person\'s approval');
    expect(deployments()).toEqual([]);
    const parked = first.parked!;
    // The top-level pending call is the delegating one; the person is shown the inner call and its path.
    expect(parked.pending.toolName).toBe("release");
    const approval = pendingApproval(parked);
    expect(approval).toMatchObject({ kind: "ask", toolCall: { name: "deploy", arguments: { target: "api-prod" } } });
    expect(approval.path.map((step) => step.toolName)).toEqual(["release", "ship"]);
    expect(approval.path[0]!.runId).toBe(first.runId);
    // Stats of the parked tree include every level so far.
    expect(first.stats.tasks).toBe(3);
    expect(first.stats.modelCalls).toBe(brains.boss.calls.length + brains.kid.calls.length);

    const resumed = resumeInProcess(parked, "park");
    expect(resumed.ok).toBe(true);
    const result = (resumed as { ok: true; result: TaskResult }).result;
    expect(result.status).toBe("completed");
    expect(texts(result.messages)).toEqual([
      "release 2.0 to prod",
      "Releasing.call:release",
      "shipped api",
      "Released 2.0.",
    ]);
    expect(deployments()).toHaveLength(1);
    const middle = result.subRuns![0]!.result;
    expect(texts(middle.messages).at(-1)).toBe("shipped api");
    expect(middle.subRuns![0]!.result.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(result.stats.tasks).toBe(3);
    expect(result.stats.humanReview.gates).toEqual([expect.objectContaining({ kind: "ask", decision: "approve" })]);

    expect(resumeInProcess(parked, "replay")).toEqual({ ok: false, code: "replayed" });

    const tampered: ParkedRun = structuredClone(parked);
    const inner = tampered.pending.child!.pending.child!;
    inner.pending.arguments.target = "everything";
    const innerCall = inner.messages.at(-1)!;
    if (innerCall.role === "assistant") {
      const block = innerCall.content.find((b) => b.type === "toolCall");
      if (block?.type === "toolCall") block.arguments.target = "everything";
    }
    expect(resumeInProcess(tampered, "tampered")).toEqual({ ok: false, code: "bad_signature" });
    expect(resumeInProcess(parked.pending.child, "bare-inner")).toEqual({ ok: false, code: "not_top_level" });
    expect(deployments()).toHaveLength(1);
  }, 120_000);

  it("a deny on resume reaches the grandchild's call; it does not run and the tree completes", async () => {
    writeFileSync(countFile, "");
    const { top } = treeTools(countFile);
    const { runner } = treeSetup({
      boss: [fauxToolCall("release", { version: "3.0" }), fauxText("Release stopped.")],
      kid: [
        fauxToolCall("ship", { service: "db" }),
        fauxToolCall("deploy", { target: "db-prod" }),
        fauxText("deploy was denied"),
        fauxText("could not ship db"),
      ],
    });
    const first = await runner.runTask({ objective: "release 3.0", tools: [top] });
    expect(first.status).toBe("parked");
    const done = await runner.resume(first.parked, { decision: "deny", reason: "not on a friday" }, { tools: [top] });
    expect(done.status).toBe("completed");
    expect(deployments()).toEqual([]);
    const grandchild = done.subRuns![0]!.result.subRuns![0]!.result;
    expect(grandchild.messages[2]).toMatchObject({ role: "toolResult", details: { error: "denied" } });
    expect(done.stats.humanReview.gates).toEqual([expect.objectContaining({ kind: "ask", decision: "deny" })]);
    await expect(runner.resume(first.parked, { decision: "approve" }, { tools: [top] })).rejects.toMatchObject({
      code: "replayed",
    });
  });
});
