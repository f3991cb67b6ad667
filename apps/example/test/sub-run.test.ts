import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

// Spawns the CLI (tsx compiles the sources on start): minutes on a busy machine, not seconds.
afterAll(removeTempDirs);

describe("x-agent demo sub-run (child process, scripted models)", { timeout: 180_000 }, () => {
  it(
    "the agent delegates the migration to a child with fewer tools; the parent's frozen classifier blocks the " +
      "apply the child's own allowed; the child's spend is " +
      "inside the parent's, every model call counted once",
    async () => {
      const cwd = await tempDir("x-agent-test-sub-run-");
      const run = await runCli(["demo", "sub-run", "--json"], { cwd });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "scenario").map((s) => s.name)).toEqual(["sub-run"]);

      // The parent calls only the delegating tool; the child's calls are its own speaker's, on its fewer tools.
      expect(ofType(events, "tool_call").map((c) => [c.speaker, c.name])).toEqual([
        ["agent", "write_migration"],
        ["child", "list_files"],
        ["child", "write_file"],
        ["child", "shell"],
      ]);
      const delegated = ofType(events, "tool_call")[0]!;
      expect(delegated.arguments.task).toMatch(/apply it to app\.db/);

      // Each gated call of the child: its own classifier (leg), then the parent's as it was frozen (ancestor).
      const verdicts = ofType(events, "verdict");
      expect(verdicts.map((v) => [v.tool, v.station, v.verdict])).toEqual([
        ["write_file", "leg", "allow"],
        ["write_file", "ancestor", "allow"],
        ["shell", "leg", "allow"],
        ["shell", "ancestor", "block"],
      ]);
      expect(verdicts[3]!.reason).toMatch(/the user said to run nothing against the database/);

      const results = ofType(events, "tool_result");
      const apply = results.find((r) => r.name === "shell")!;
      expect(apply).toMatchObject({ speaker: "child", isError: true });
      expect(apply.text).toMatch(/ancestor run/);
      expect(results.at(-1)).toMatchObject({ speaker: "agent", name: "write_migration", isError: false });

      const sandbox = ofType(events, "note")
        .find((n) => n.text.startsWith("sandbox: "))!
        .text.slice("sandbox: ".length);
      expect(await readFile(join(sandbox, "migrations", "002_add_users_email.sql"), "utf8")).toBe(
        "ALTER TABLE users ADD COLUMN email TEXT;\n",
      );
      // The blocked command never ran: no database was made.
      expect(existsSync(join(sandbox, "app.db"))).toBe(false);

      const result = ofType(events, "result")[0]!;
      expect(result.output).toMatch(
        /^The helper reports: I wrote migrations\/002_add_users_email\.sql but did not apply it/,
      );
      const { summary } = result;
      expect(summary.status).toBe("completed");
      expect(summary.children).toHaveLength(1);
      const child = summary.children![0]!;
      expect(child).toMatchObject({ label: "write_migration", status: "completed", turns: 4 });
      // Every model call of the scenario — the agent's, the child's and all four classifications — is in
      // the parent's tokens exactly once; the child's share is its own calls and the classifications it caused.
      const ends = ofType(events, "model_call").filter((m) => m.phase === "end");
      const sum = (speakers: string[]) =>
        ends.filter((m) => speakers.includes(m.speaker)).reduce((total, m) => total + (m.tokens ?? 0), 0);
      expect(summary.tokens).toBe(sum(["agent", "child", "classifier"]));
      expect(child.tokens).toBe(summary.tokens - sum(["agent"]));
      expect(child.costMicroUsd).toBeGreaterThan(0);
      expect(child.costMicroUsd).toBeLessThan(summary.costMicroUsd);

      const table = ofType(events, "summary").at(-1)!;
      expect(table.rows.map((r) => [r.label, r.children?.map((c) => c.label)])).toEqual([
        ["sub-run", ["write_migration"]],
      ]);
    },
  );

  it("prints the child's calls, both stations' verdicts and the child's row beneath the parent's", async () => {
    const cwd = await tempDir("x-agent-test-sub-run-human-");
    const run = await runCli(["demo", "sub-run"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /child {3}→ shell \{"command":"sqlite3 app\.db < migrations\/002_add_users_email\.sql"\}/,
    );
    expect(run.stdout).toMatch(
      /✗ BLOCKED shell: the user said to run nothing against the database.*an ancestor run's frozen classifier/,
    );
    expect(run.stdout).toMatch(
      /└ sub-run write_migration: completed — 4 turns, ~\d+ tokens, \$0\.\d+ \(included above\)/,
    );
    expect(run.stdout).toMatch(/│ sub-run\s+│ completed │/);
    expect(run.stdout).toMatch(/│ └ write_migration\s+│ completed │\s+4 │/);
  });
});
