import { afterAll, describe, expect, it } from "vitest";
import type { AppEvent } from "../src/render/events";
import { ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

// Spawns the CLI (tsx compiles the sources on start): minutes on a busy machine, not seconds.
afterAll(removeTempDirs);

/** The model calls that ended between two events of the stream (by index). */
function callsBetween(events: readonly AppEvent[], from: number, to: number) {
  return events
    .slice(from, to)
    .filter((e): e is Extract<AppEvent, { type: "model_call" }> => e.type === "model_call" && e.phase === "end");
}

describe("x-agent demo review (child process, scripted reviewers)", { timeout: 180_000 }, () => {
  it(
    "routes the review to a council; the planted bugs are reported, the wrong " +
      "finding is disputed and dropped; every cost is the sum of its model calls",
    async () => {
      const cwd = await tempDir("x-agent-test-review-");
      const run = await runCli(["demo", "review", "--json"], { cwd });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "scenario").map((s) => s.name)).toEqual(["review"]);
      expect(ofType(events, "route")).toEqual([
        {
          type: "route",
          mode: "council",
          reason: "open-ended review: no answer to check, breadth and critique find more",
        },
      ]);

      const [council, single] = ofType(events, "council");
      expect(council).toMatchObject({ label: "review (council)", status: "completed", threshold: 60, rounds: 2 });
      expect(council!.stoppedBecause).toBe("agreement");
      const at = (location: string) => council!.findings.find((f) => f.location === location);
      // Both planted bugs: the path traversal (security's) and the page offset (correctness and tests, merged).
      expect(at("src/uploads.js:9")).toMatchObject({
        reported: true,
        foundBy: ["security"],
        confirmedBy: ["correctness", "tests"],
        disputedBy: [],
      });
      expect(at("src/uploads.js:9")!.claim).toMatch(/^path traversal/);
      expect(at("src/uploads.js:19")).toMatchObject({
        reported: true,
        foundBy: ["correctness", "tests"],
        confirmedBy: ["security"],
      });
      // The NaN claim is wrong (`?? 1` covers a missing page): both other lenses dispute it, its finder withdraws it.
      const wrong = at("src/uploads.js:16")!;
      expect(wrong).toMatchObject({ reported: false, score: 0, foundBy: ["correctness"], confirmedBy: [] });
      expect(wrong.disputedBy.map((d) => d.reviewer)).toEqual(["correctness", "security", "tests"]);
      expect(wrong.disputedBy[1]!.reason).toMatch(/req\.query\.page \?\? 1/);
      expect(council!.findings.filter((f) => f.reported).map((f) => f.location)).toEqual([
        "src/uploads.js:9",
        "src/uploads.js:19",
      ]);
      expect(council!.reviewers.map((r) => [r.name, r.status, r.findings, r.runs])).toEqual([
        ["security", "completed", 1, 3],
        ["correctness", "completed", 2, 3],
        ["tests", "completed", 1, 3],
      ]);

      // Alone, the correctness reviewer misses the security bug and reports its wrong finding.
      expect(single!.reviewers.map((r) => r.name)).toEqual(["correctness"]);
      expect(single!.findings.map((f) => [f.location, f.reported])).toEqual([
        ["src/uploads.js:19", true],
        ["src/uploads.js:16", true],
      ]);

      // Every model call is a reviewer's, and each council's tokens and cost are exactly the sum of its own calls.
      const councilAt = events.indexOf(council!);
      const singleAt = events.indexOf(single!);
      const councilCalls = callsBetween(events, 0, councilAt);
      const singleCalls = callsBetween(events, councilAt, singleAt);
      expect(callsBetween(events, 0, events.length).every((c) => c.speaker === "reviewer")).toBe(true);
      expect(councilCalls).toHaveLength(9);
      expect(council!.modelCalls).toBe(9);
      expect(singleCalls).toHaveLength(1);
      const sum = (calls: typeof councilCalls, field: "tokens" | "costMicroUsd") =>
        calls.reduce((n, c) => n + (c[field] ?? 0), 0);
      expect(council!.summary.tokens).toBe(sum(councilCalls, "tokens"));
      expect(council!.summary.costMicroUsd).toBe(sum(councilCalls, "costMicroUsd"));
      expect(single!.summary.tokens).toBe(sum(singleCalls, "tokens"));
      expect(single!.summary.costMicroUsd).toBe(sum(singleCalls, "costMicroUsd"));
      expect(council!.summary.costMicroUsd).toBe(council!.reviewers.reduce((n, r) => n + r.costMicroUsd, 0));
      expect(single!.summary.costMicroUsd).toBeGreaterThan(0);
      expect(council!.summary.costMicroUsd).toBeGreaterThan(3 * single!.summary.costMicroUsd);

      const table = ofType(events, "summary").at(-1)!;
      expect(table.rows).toEqual([council!.summary, single!.summary]);
      expect(table.rows.map((r) => [r.label, r.turns])).toEqual([
        ["review (council)", 9],
        ["review (single)", 1],
      ]);
    },
  );

  it(
    "prints the route, the findings table with who found, " + "confirmed and disputed each, and the comparison",
    async () => {
      const cwd = await tempDir("x-agent-test-review-human-");
      const run = await runCli(["demo", "review"], { cwd });
      expect(run.code).toBe(0);
      const out = run.stdout;
      expect(out).toContain("route   a council: open-ended review: no answer to check");
      expect(out).toMatch(
        /│ id │ location\s+│ claim\s+│ found by\s+│ confirmed by\s+│ disputed by\s+│ score │ outcome\s+│/,
      );
      expect(out).toMatch(
        /│ F\d │ src\/uploads\.js:9 {2}│ path traversal.*│ security\s+│ correctness, tests │ —\s+│\s+98 │ reported │/,
      );
      expect(out).toMatch(
        new RegExp(
          String.raw`│ F\d │ src\/uploads\.js:16 │ page is NaN.*│ correctness\s+│ —\s+│ ` +
            String.raw`correctness, security, tests │\s+0 │ dropped\s+│`,
        ),
      );
      expect(out).toMatch(/F\d correctness, its finder, withdrew it: `req\.query\.page \?\? 1`/);
      expect(out).toMatch(/council of three: 2\/2 planted bugs reported, 0 wrong findings reported — 9 model calls/);
      expect(out).toMatch(
        new RegExp(
          String.raw`single reviewer: 1\/2 planted bugs reported, 1 wrong finding reported — 1 model call, ` +
            String.raw`~\d+ tokens, \$0\.\d+; the council cost \d+\.\d× as much`,
        ),
      );
      expect(out).toMatch(/│ review \(council\) │ completed │\s+9 │/);
      expect(out).not.toContain("\x1b[");
    },
  );
});
