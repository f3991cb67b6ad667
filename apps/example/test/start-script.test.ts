import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, ofType, parseEvents, removeTempDirs, REPO_ROOT, spawnCollect, tempDir } from "./cli-helpers";

afterAll(removeTempDirs);

describe("pnpm example (the root script, from sources, no build)", { timeout: 180_000 }, () => {
  it("runs the demo through the app's start script and prints commands a user can paste back", async () => {
    // A fixed key keeps the run from writing .x-agent/park.key into the repository.
    // The demo's own temp folder goes under one of ours, removed afterwards.
    const env = cleanEnv({ X_AGENT_PARK_KEY: "start-script-test-key", TMPDIR: await tempDir("x-agent-test-start-") });
    const run = await spawnCollect("pnpm", ["example", "demo", "approval", "--park-only", "--json"], {
      cwd: REPO_ROOT,
      env,
    });
    expect(run.code).toBe(0);
    // pnpm echoes the scripts it runs on stderr; stdout must hold the JSON lines and nothing else.
    const events = parseEvents(run.stdout);
    expect(events[0]).toMatchObject({ type: "banner" });
    const parked = ofType(events, "parked")[0]!;
    expect(parked.resume).toMatch(/^pnpm example resume \S+ --approve/);
    expect(parked.file.startsWith(join(env.TMPDIR!, "x-agent-demo-"))).toBe(true);
  });

  it("`pnpm example --help` and `pnpm x-agent --help` print the CLI's help, not pnpm's", async () => {
    for (const args of [
      ["example", "--help"],
      ["x-agent", "--help"],
    ]) {
      const run = await spawnCollect("pnpm", args, { cwd: REPO_ROOT, env: cleanEnv() });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("x-agent — the @x agent core");
      expect(run.stdout).toContain("x-agent resume <file> [--approve|--deny]");
    }
  });
});
