import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxText } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { RUN_CHECKPOINT_VERSION } from "../vocabulary/checkpoint";
import { PARKED_RUN_VERSION } from "../vocabulary/park-schema";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { fakeClock, setup } from "../../test/harness";

// Signed by a runner of each released format version with this key, then frozen: a format change
// that cannot read them back strands every approval waiting when a host upgrades.
const KEY = "fixture-key-for-stored-versions";
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../../test/fixtures");
const fixture = (name: string) => JSON.parse(readFileSync(join(fixtures, name), "utf8")) as Record<string, unknown>;
const createdAt = (value: Record<string, unknown>) => value.createdAt as number;

/** A tool with the fixtures' argument shape that records what it ran with. */
function tool(name: string, input: z.ZodObject) {
  const calls: unknown[] = [];
  return { calls, tool: defineTool({ name, description: name, input, execute: (args) => (calls.push(args), "ok") }) };
}

describe("stored parks and checkpoints across versions", () => {
  it("keeps a fixture of every format version up to the current one", () => {
    const names = readdirSync(fixtures);
    for (let v = 1; v <= PARKED_RUN_VERSION; v++) expect(names).toContain(`parked-run-v${v}.json`);
    for (let v = 1; v <= RUN_CHECKPOINT_VERSION; v++) expect(names).toContain(`run-checkpoint-v${v}.json`);
  });

  it("a v1 park resumes: the approved call runs once, the run completes", async () => {
    const park = fixture("parked-run-v1.json");
    const deploy = tool("deploy", z.object({ target: z.string() }));
    const { runner } = setup([fauxText("deployed it")], { parkKey: KEY, clock: fakeClock(createdAt(park) + 60_000) });
    const result = await runner.resume(park, { decision: "approve" }, { tools: [deploy.tool] });
    expect(result.status).toBe("completed");
    expect(deploy.calls).toEqual([{ target: "api-prod" }]);
    expect(result.output).toBe("deployed it");
  });

  it("a v1 checkpoint continues from its last finished turn", async () => {
    const checkpoint = fixture("run-checkpoint-v1.json");
    const step = tool("step", z.object({ n: z.number() }));
    const { runner, brain } = setup([fauxText("done")], { parkKey: KEY, clock: fakeClock(createdAt(checkpoint)) });
    const result = await runner.continueRun(checkpoint, { tools: [step.tool] });
    expect(result.status).toBe("completed");
    expect(brain.calls).toHaveLength(1);
    expect(brain.calls[0]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
  });

  it("a newer version is refused, typed, naming both versions; nothing is claimed", async () => {
    for (const [name, newest] of [
      ["parked-run-v1.json", PARKED_RUN_VERSION],
      ["run-checkpoint-v1.json", RUN_CHECKPOINT_VERSION],
    ] as const) {
      const value = { ...fixture(name), version: newest + 1 };
      const { runner } = setup([fauxText("never")], { parkKey: KEY, clock: fakeClock(createdAt(value)) });
      const refused = name.startsWith("parked")
        ? runner.resume(value, { decision: "approve" }, { tools: [] })
        : runner.continueRun(value, { tools: [] });
      await expect(refused).rejects.toMatchObject({
        name: "ParkedRunError",
        code: "version_unsupported",
        detail: { version: newest + 1, newest },
        message: expect.stringContaining(`v${newest + 1}`) as unknown,
      });
    }
    // Still resumable by a runner that reads it: the refusal consumed nothing.
    const park = fixture("parked-run-v1.json");
    const { runner } = setup([fauxText("ok")], { parkKey: KEY, clock: fakeClock(createdAt(park)) });
    await expect(
      runner.resume(park, { decision: "deny" }, { tools: [tool("deploy", z.object({ target: z.string() })).tool] }),
    ).resolves.toMatchObject({
      status: "completed",
    });
  });
});
