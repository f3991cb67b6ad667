import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall, type FauxCall } from "@x/brain-faux";
import type { ToolResultMessage } from "@x/llm-types";
import { afterAll, describe, expect, it } from "vitest";
import { systemClock } from "../effects/clock";
import { createFileParkLedger } from "../effects/park-ledgers";
import { ToolGrantError } from "./tool-grant";
import type { RunCheckpoint } from "../vocabulary/checkpoint";
import type { TaskResult } from "../vocabulary/types";
import { recorder, setup } from "../../test/harness";
import { treeSetup } from "../../test/sub-run-harness";
import { grantTools } from "../../test/grant-tools";
import { runChild } from "../../test/run-child";

const dir = mkdtempSync(join(tmpdir(), "x-grant-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "a-shared-key-for-the-grant-tests";
const logFile = join(dir, "ran.txt");
const ran = () => readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean);
const offered = (calls: readonly FauxCall[]) => calls.map((call) => (call.context.tools ?? []).map((t) => t.name));

type ChildOutput = { ok: true; result: TaskResult; offered: string[][] } | { ok: false; code: string };

function resumeElsewhere(park: unknown): ChildOutput {
  const file = join(dir, "park.json");
  writeFileSync(file, JSON.stringify(park));
  return runChild<ChildOutput>("resume-grant-child.ts", [file, join(dir, "ledger"), logFile, KEY]);
}

/** The tool results of a run's sub-run at `path` (indexes into `subRuns`, level by level). */
function resultsAt(result: TaskResult, path: number[]): ToolResultMessage[] {
  let at = result;
  for (const index of path) at = at.subRuns![index]!.result;
  return at.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
}

describe("a run is offered exactly its grant", () => {
  it(
    "a grandchild parked and resumed in another process is offered only its planned tools; " +
      "an ancestor's tool is forbidden and runs nothing",
    async () => {
      writeFileSync(logFile, "");
      const { runner, brains } = treeSetup(
        {
          boss: [fauxToolCall("release", { version: "2.0" })],
          kid: [
            fauxToolCall("ship", { service: "api" }),
            fauxToolCall("shell", { command: "touch ../before" }),
            fauxToolCall("deploy", { target: "api-prod" }),
          ],
        },
        { parkKey: KEY, parkLedger: createFileParkLedger(join(dir, "ledger")), clock: systemClock },
      );
      const first = await runner.runTask({ objective: "release 2.0", tools: grantTools(logFile).top });
      expect(first.status).toBe("parked");
      // Before the park: the middle run has [ship], the grandchild [deploy]; the shell call was refused.
      expect(offered(brains.kid.calls)).toEqual([["ship"], ["deploy"], ["deploy"]]);
      const parked = first.parked!;
      expect(parked.pending.child!.pending.child!.spec.toolNames).toEqual(["deploy"]);

      const resumed = resumeElsewhere(parked);
      if (!resumed.ok) throw new Error(`resume refused: ${resumed.code}`);
      expect(resumed.result.status).toBe("completed");
      // After it: the grandchild is still offered only [deploy] (then the middle run [ship]).
      expect(resumed.offered).toEqual([["deploy"], ["deploy"], ["ship"]]);
      const grandchild = resultsAt(resumed.result, [0, 0]);
      expect(grandchild.map((r) => [r.toolName, (r.details as { error?: string } | undefined)?.error])).toEqual([
        ["shell", "forbidden"],
        ["deploy", undefined],
        ["shell", "forbidden"],
      ]);
      // One line: the approved deploy (tree-tools writes its pid and target); never the shell.
      expect(ran()).toEqual([expect.stringMatching(/^\d+ api-prod$/)]);
    },
    120_000,
  );

  it("resume refuses, unclaimed, a park whose grant at any level the given tools lack", async () => {
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("release", { version: "2.1" })],
        kid: [fauxToolCall("ship", { service: "db" }), fauxToolCall("deploy", { target: "db" })],
      },
      { parkKey: KEY, parkLedger: createFileParkLedger(join(dir, "ledger-2")), clock: systemClock },
    );
    const { top, shell } = grantTools(logFile);
    const first = await runner.runTask({ objective: "release 2.1", tools: top });
    await expect(runner.resume(first.parked, { decision: "approve" }, { tools: [shell] })).rejects.toMatchObject({
      name: "ParkedRunError",
      code: "unknown_tool",
      detail: { missing: ["release"] },
    });
    // Still unclaimed: the same park resumes once the tools are there.
    const done = await runner.resume(first.parked, { decision: "deny" }, { tools: top });
    expect(done.status).not.toBe("parked");
  });

  it("toolNames: a task is offered only the named tools; a call to another tool on hand is forbidden", async () => {
    const step = recorder("step");
    const wipe = recorder("wipe");
    const { runner, brain } = setup([
      fauxToolCall("wipe", { text: "all" }),
      fauxToolCall("nope", { text: "x" }),
      fauxText("done"),
    ]);
    const result = await runner.runTask({ objective: "go", tools: [step.tool, wipe.tool], toolNames: ["step"] });
    expect(offered(brain.calls)).toEqual([["step"], ["step"], ["step"]]);
    expect(wipe.calls).toEqual([]);
    const errors = result.messages.flatMap((m) =>
      m.role === "toolResult" ? [(m.details as { error: string }).error] : [],
    );
    expect(errors).toEqual(["forbidden", "unknown_tool"]);
    expect(result.parked).toBeUndefined();
  });

  it("toolNames naming a tool the host lacks throws ToolGrantError before any model call", async () => {
    const { runner, brain } = setup([fauxText("never")]);
    const error = await runner
      .runTask({ objective: "go", tools: [recorder("step").tool], toolNames: ["step", "wipe"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolGrantError);
    expect(error).toMatchObject({ code: "tool_unavailable", missing: ["wipe"] });
    expect(brain.calls).toHaveLength(0);
  });

  it("continueRun offers the checkpoint's signed grant, not every tool it is given", async () => {
    const step = recorder("step");
    const wipe = recorder("wipe");
    const checkpoints: RunCheckpoint[] = [];
    const { runner } = setup([fauxToolCall("step", { text: "1" }), fauxText("done")], { parkKey: KEY });
    await runner.runTask({ objective: "go", tools: [step.tool] }, { onCheckpoint: (c) => void checkpoints.push(c) });
    const again = setup([fauxToolCall("wipe", { text: "all" }), fauxText("done")], { parkKey: KEY });
    const result = await again.runner.continueRun(checkpoints[0]!, { tools: [step.tool, wipe.tool] });
    expect(offered(again.brain.calls)).toEqual([["step"], ["step"]]);
    expect(wipe.calls).toEqual([]);
    expect(result.messages.at(-2)).toMatchObject({ toolName: "wipe", details: { error: "forbidden" } });
    await expect(again.runner.continueRun(checkpoints[0]!, { tools: [wipe.tool] })).rejects.toMatchObject({
      code: "unknown_tool",
      detail: { missing: ["step"] },
    });
  });
});
