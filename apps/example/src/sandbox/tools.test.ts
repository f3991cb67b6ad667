import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createMemoryParkLedger, createRunner } from "@x/runner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_PERMISSIONS, sandboxTools } from "./tools";

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-tools-")));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("sandbox tools", () => {
  it("gate the shell by auto mode and writes by a person, in the tools themselves and in the permission map", () => {
    const byName = Object.fromEntries(
      sandboxTools({ root, shellTimeoutMs: 1_000 }).map((tool) => [tool.name, tool.permission]),
    );
    expect(byName).toEqual({ list_files: "allow", read_file: "allow", write_file: "ask", shell: "auto" });
    expect(SANDBOX_PERMISSIONS).toEqual(byName);
    expect(Object.isFrozen(SANDBOX_PERMISSIONS)).toBe(true);
  });

  it("never runs a command the classifier did not clear: an unreadable verdict parks it, nothing runs", async () => {
    // Agent asks for the shell; the classifier answers nonsense; with no approver the call must wait, not run.
    const brain = createFauxBrain([
      fauxToolCall("shell", { command: "touch ran" }),
      fauxText("maybe?"),
      fauxText("maybe?"),
      fauxText("maybe?"),
    ]);
    const runner = createRunner({
      brains: [brain],
      models: { m: fauxModel(), c: fauxModel({ id: "faux-classifier" }) },
      roles: { default: "m", classifier: "c" },
      parkKey: "k".repeat(32),
      parkLedger: createMemoryParkLedger(),
    });
    const result = await runner.runTask({
      objective: "make a file",
      tools: sandboxTools({ root, shellTimeoutMs: 1_000 }),
      permissions: SANDBOX_PERMISSIONS,
      maxTurns: 3,
    });
    // Every call after the agent's first one went to the classifier (it may be asked again); none was answered
    // with a verdict.
    expect(brain.calls.length).toBeGreaterThan(1);
    expect(brain.calls.slice(1).every((call) => call.model.id === "faux-classifier")).toBe(true);
    expect(result.status).toBe("parked");
    expect(existsSync(join(root, "ran"))).toBe(false);
  });
});
