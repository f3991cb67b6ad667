import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PostgresStrategyStore } from "@x/strategy-store-postgres";
import { afterAll, describe, expect, it } from "vitest";
import { byScenario, ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

function sandboxOf(stdout: string): string {
  const note = parseEvents(stdout).find((e) => e.type === "note" && e.text.startsWith("sandbox: "));
  if (!note || note.type !== "note") throw new Error("no sandbox note");
  return note.text.slice("sandbox: ".length);
}

// Each test spawns the CLI (tsx compiles the sources on start): minutes on a busy machine, not seconds.
afterAll(removeTempDirs);

describe("x-agent demo (child process, scripted models)", { timeout: 180_000 }, () => {
  it("runs every embedded scenario end to end, in order, and exits 0", async () => {
    const cwd = await tempDir("x-agent-test-all-");
    const run = await runCli(["demo", "--json"], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = parseEvents(run.stdout);
    expect(events[0]).toMatchObject({ type: "banner" });
    expect(ofType(events, "note")[0]!.text).toMatch(/SCRIPTED/);
    const groups = byScenario(events);
    expect([...groups.keys()]).toEqual(["", "auto-mode", "teacher", "memory", "approval", "mcp", "sub-run", "review"]);

    // Auto mode: the destructive command is blocked and never runs; the read-only one is allowed and runs.
    const auto = groups.get("auto-mode")!;
    const verdicts = ofType(auto, "verdict");
    expect(verdicts.map((v) => v.verdict)).toEqual(["block", "allow"]);
    expect(verdicts[0]!.reason).toMatch(/rm -rf/);
    const autoCalls = ofType(auto, "tool_call");
    expect(autoCalls[0]!.arguments.command).toMatch(/^rm -rf/);
    const autoResults = ofType(auto, "tool_result");
    expect(autoResults[0]).toMatchObject({ name: "shell", isError: true });
    expect(autoResults[1]).toMatchObject({ name: "shell", isError: false });
    expect(autoResults[1]!.text).toContain("build/bundle.js.map");
    expect(ofType(auto, "result")[0]!.summary.status).toBe("completed");

    // Teacher mode: stuck on guessed paths, one escalation, success, strategy stored.
    const teacher = groups.get("teacher")!;
    expect(ofType(teacher, "strategies_retrieved")[0]!.hits).toEqual([]);
    const failedReads = ofType(teacher, "tool_result").filter((r) => r.name === "read_file" && r.isError);
    expect(failedReads).toHaveLength(3);
    const escalations = ofType(teacher, "escalation");
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({ trigger: "stuck", takeover: false, confidence: 3 });
    expect(escalations[0]!.strategy).toMatch(/list_files/);
    expect(ofType(teacher, "strategy_stored")).toHaveLength(1);
    const teacherResult = ofType(teacher, "result")[0]!;
    expect(teacherResult.output).toBe("config/settings.json sets port to 8080.");
    expect(teacherResult.summary).toMatchObject({ status: "completed", strategiesStored: 1 });
    expect(teacherResult.summary.teacherShare).toBeGreaterThan(0);

    // Strategy memory: the stored strategy comes back from the store; no teacher is consulted.
    const memory = groups.get("memory")!;
    const retrieved = ofType(memory, "strategies_retrieved")[0]!;
    expect(retrieved.hits).toHaveLength(1);
    expect(retrieved.hits[0]!.strategy).toBe(escalations[0]!.strategy);
    expect(ofType(memory, "escalation")).toEqual([]);
    expect(memory.some((e) => e.type === "model_call" && e.speaker === "teacher")).toBe(false);
    expect(ofType(memory, "tool_call")[0]).toMatchObject({ name: "list_files" });
    const memoryResult = ofType(memory, "result")[0]!;
    expect(memoryResult.output).toBe('config/logging.json sets level to "debug".');
    expect(memoryResult.summary).toMatchObject({ status: "completed", teacherShare: 0, strategiesUsed: 1 });

    // Approval: parked to a file, finished by a separate `resume` process, the write done once.
    const approval = groups.get("approval")!;
    const parked = ofType(approval, "parked")[0]!;
    expect(parked).toMatchObject({ tool: "write_file", arguments: { path: "NOTES.md" } });
    expect(parked.resume).toMatch(/^x-agent resume .+ --approve/);
    const results = ofType(approval, "result");
    expect(results.map((r) => [r.label, r.summary.status])).toEqual([
      ["approval", "parked"],
      ["approval (resumed)", "completed"],
    ]);
    const notes = await readFile(join(sandboxOf(run.stdout), "NOTES.md"), "utf8");
    expect(notes).toContain("# Acme API 1.2.0");

    // MCP: the filesystem server's read-only tool runs unasked; its write is judged by auto mode first.
    const mcp = groups.get("mcp")!;
    expect(ofType(mcp, "tool_call").map((c) => c.name)).toEqual(["mcp__read_text_file", "mcp__write_file"]);
    expect(ofType(mcp, "verdict").map((v) => [v.tool, v.verdict])).toEqual([["mcp__write_file", "allow"]]);
    expect(ofType(mcp, "result")[0]!.summary.status).toBe("completed");
    expect(await readFile(join(sandboxOf(run.stdout), "TITLE.txt"), "utf8")).toBe("Acme API\n");

    // Sub-runs (test/sub-run.test.ts has the whole story): the child's apply is blocked by the parent's classifier.
    const subRun = groups.get("sub-run")!;
    expect(ofType(subRun, "verdict").map((v) => [v.tool, v.station, v.verdict])).toContainEqual([
      "shell",
      "ancestor",
      "block",
    ]);
    expect(ofType(subRun, "result")[0]!.summary.children?.map((c) => c.label)).toEqual(["write_migration"]);

    // Council review (test/review.test.ts has the whole story): both planted bugs reported, the wrong finding dropped.
    const review = groups.get("review")!;
    expect(ofType(review, "route")[0]!.mode).toBe("council");
    const council = ofType(review, "council")[0]!;
    expect(council.findings.filter((f) => f.reported).map((f) => f.location)).toEqual([
      "src/uploads.js:9",
      "src/uploads.js:19",
    ]);

    const summary = ofType(events, "summary").at(-1)!;
    expect(summary.rows.map((r) => r.label)).toEqual([
      "auto-mode",
      "teacher",
      "memory",
      "approval",
      "approval (resumed)",
      "mcp",
      "sub-run",
      "review (council)",
      "review (single)",
    ]);
    for (const row of summary.rows) {
      expect(row.tokens).toBeGreaterThan(0);
      expect(row.costMicroUsd).toBeGreaterThan(0);
    }
  });

  it("auto-mode alone prints human lines, the verdicts and the closing table", async () => {
    const cwd = await tempDir("x-agent-test-human-");
    const run = await runCli(["demo", "auto-mode"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("SCRIPTED");
    expect(run.stdout).toMatch(/✗ BLOCKED shell: rm -rf/);
    expect(run.stdout).toMatch(/✓ allowed shell/);
    expect(run.stdout).toMatch(
      /│ run\s+│ status\s+│ turns │ tokens │\s+cost │ teacher share │ strategies used │ stored │/,
    );
    expect(run.stdout).toMatch(/│ auto-mode\s+│ completed │/);
    // Not a terminal: no spinner frames, no colour codes.
    expect(run.stdout).not.toContain("\x1b[");
    expect(run.stdout).not.toContain("\r");
  });

  it(
    "a second process retrieves the strategy the first " + "one stored in the SQLite file, and needs no teacher",
    async () => {
      const cwd = await tempDir("x-agent-test-memory-");
      const store = join(cwd, "shared", "strategies.db");
      const first = await runCli(["demo", "teacher", "--json", "--store", store, "--scope", "acme"], { cwd });
      expect(first.code).toBe(0);
      expect(ofType(parseEvents(first.stdout), "strategy_stored")).toHaveLength(1);

      const second = await runCli(["demo", "memory", "--json", "--store", store, "--scope", "acme"], { cwd });
      expect(second.code).toBe(0);
      const events = parseEvents(second.stdout);
      expect(ofType(events, "strategies_retrieved")[0]!.hits).toHaveLength(1);
      expect(ofType(events, "escalation")).toEqual([]);

      // Another tenant's scope sees nothing, and its student needs the teacher again.
      const other = await runCli(["demo", "memory", "--json", "--store", store, "--scope", "globex"], { cwd });
      expect(other.code).toBe(0);
      const otherEvents = parseEvents(other.stdout);
      expect(ofType(otherEvents, "strategies_retrieved")[0]!.hits).toEqual([]);
      expect(ofType(otherEvents, "escalation")).toHaveLength(1);
    },
  );

  it(
    "a parked approval is finished later by x-agent resume: " +
      "deny runs nothing, a replay or a tampered park is refused",
    async () => {
      const cwd = await tempDir("x-agent-test-park-");
      const parkedRun = await runCli(["demo", "approval", "--park-only", "--json"], { cwd });
      expect(parkedRun.code).toBe(0);
      const parked = ofType(parseEvents(parkedRun.stdout), "parked")[0]!;
      const sandbox = sandboxOf(parkedRun.stdout);
      expect(existsSync(join(sandbox, "NOTES.md"))).toBe(false);
      // The signing key stays with the project folder, not in the park file.
      expect(existsSync(join(cwd, ".x-agent", "park.key"))).toBe(true);

      // An edited call, or an edited sandbox (where the approved write would land), is refused before anything runs.
      const edits: Array<(json: { parked: { pending: { arguments: { path: string } } }; sandbox: string }) => void> = [
        (json) => (json.parked.pending.arguments.path = "../../escape.md"),
        (json) => (json.sandbox = cwd),
      ];
      for (const edit of edits) {
        const tampered = join(cwd, "tampered.json");
        const json = JSON.parse(await readFile(parked.file, "utf8"));
        edit(json);
        await writeFile(tampered, JSON.stringify(json));
        const refusedTamper = await runCli(["resume", tampered, "--approve", "--json"], { cwd });
        expect(refusedTamper.code).toBe(1);
        expect(ofType(parseEvents(refusedTamper.stdout), "error")[0]!.code).toBe("park_file_invalid");
        expect(existsSync(join(cwd, "NOTES.md"))).toBe(false);
      }

      const denied = await runCli(["resume", parked.file, "--deny", "--reason", "not now", "--json"], { cwd });
      expect(denied.code).toBe(0);
      const deniedResult = ofType(parseEvents(denied.stdout), "result")[0]!;
      expect(deniedResult.summary.status).toBe("completed");
      expect(deniedResult.output).toMatch(/^I did not write NOTES.md/);
      expect(existsSync(join(sandbox, "NOTES.md"))).toBe(false);

      const replay = await runCli(["resume", parked.file, "--approve", "--json"], { cwd });
      expect(replay.code).toBe(1);
      expect(ofType(parseEvents(replay.stdout), "error")[0]!.code).toBe("replayed");
      expect(existsSync(join(sandbox, "NOTES.md"))).toBe(false);
      expect(await readdir(join(cwd, ".x-agent", "park-ledger"))).toHaveLength(1);

      const missing = await runCli(["resume", join(cwd, "nope.json"), "--approve", "--json"], { cwd });
      expect(missing.code).toBe(1);
      expect(ofType(parseEvents(missing.stdout), "error")[0]).toMatchObject({
        code: "park_file_invalid",
        message: `no such park file: ${join(cwd, "nope.json")}`,
      });
    },
  );
});

// --store postgres://… against a real server, when the environment names one (the CI entry starts a throwaway one).
const PG_URL = process.env.PG_URL;

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping the demo against a real PostgreSQL (--store postgres://…)");
} else {
  const url = PG_URL;
  const scope = `x-agent-test-${randomUUID()}`;

  afterAll(async () => {
    const store = await PostgresStrategyStore.open({ connectionString: url });
    for (const record of (await store.list({ scope })).records) await store.delete(scope, record.id);
    await store.close();
  });

  describe("x-agent demo --store postgres://… (real server)", { timeout: 180_000 }, () => {
    it("stores the teacher's strategy in PostgreSQL and a second process retrieves it", async () => {
      const cwd = await tempDir("x-agent-test-pg-");
      const first = await runCli(["demo", "teacher", "--json", "--store", url, "--scope", scope], { cwd });
      expect(first.code).toBe(0);
      const firstEvents = parseEvents(first.stdout);
      expect(ofType(firstEvents, "note").some((n) => n.text.startsWith("strategy store: PostgreSQL"))).toBe(true);
      expect(ofType(firstEvents, "strategy_stored")).toHaveLength(1);

      const second = await runCli(["demo", "memory", "--json", "--store", url, "--scope", scope], { cwd });
      expect(second.code).toBe(0);
      const events = parseEvents(second.stdout);
      expect(ofType(events, "strategies_retrieved")[0]!.hits).toHaveLength(1);
      expect(ofType(events, "escalation")).toEqual([]);
    });
  });
}
