// `x-agent resume <file> --approve` as `run` does it: progress (the call it decides, the notes, the
// closing table) on stderr, the answer alone on stdout — so `x-agent resume … > answer.txt` keeps the answer.
// A resume that only shows the parked call prints it on stdout.
import { afterAll, describe, expect, it } from "vitest";
import { ofType, parseEvents, removeTempDirs, runCli, tempDir } from "./cli-helpers";

afterAll(removeTempDirs);

describe("x-agent resume: stdout for the answer, stderr for progress", { timeout: 120_000 }, () => {
  it("a decided resume splits like run; a shown-only resume keeps stdout", async () => {
    const cwd = await tempDir("x-agent-test-resume-split-");
    const parkedRun = await runCli(["demo", "approval", "--park-only", "--json"], { cwd });
    expect(parkedRun.code).toBe(0);
    const parked = ofType(parseEvents(parkedRun.stdout), "parked")[0]!;

    const shown = await runCli(["resume", parked.file], { cwd });
    expect([shown.code, shown.stderr]).toEqual([0, ""]);
    expect(shown.stdout).toContain("--approve   (or --deny)");

    const denied = await runCli(["resume", parked.file, "--deny", "--reason", "not now"], { cwd });
    expect(denied.code).toBe(0);
    expect(denied.stdout).toMatch(/^I did not write NOTES\.md/);
    expect(denied.stdout).not.toContain("denying this call");
    expect(denied.stderr).toContain("denying this call:");
    expect(denied.stderr).toMatch(/completed/);
  });
});
