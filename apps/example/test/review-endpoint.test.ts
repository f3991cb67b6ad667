import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startOpenAIMockServer, type OpenAIMockReply, type RecordedRequest } from "@x/brain-openai/testing";
import { REVIEWER_SYSTEM_PROMPT } from "@x/council";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_CHANGE } from "../src/demo/fixtures";
import { ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

/** Every call is billed the same: 1000 prompt + 100 completion tokens, so each costs 1000×$1 + 100×$2 per million. */
const USAGE = { prompt: 1000, completion: 100 };
const CALL_MICRO_USD = 1000 * 1 + 100 * 2;

function asked(request: RecordedRequest): { system: string; text: string } {
  const messages = (request.body as { messages?: Array<{ role: string; content?: unknown }> }).messages ?? [];
  const text = (m: { content?: unknown }) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));
  return {
    system: text(messages.find((m) => m.role === "system") ?? {}),
    text: messages
      .filter((m) => m.role === "user")
      .map(text)
      .join("\n"),
  };
}

const finding = (line: number, claim: string, confidence: number) => ({
  location: { file: REVIEW_CHANGE.path, line },
  claim,
  evidence: `line ${line}`,
  severity: "high",
  confidence,
});

/**
 * A model behind a real Chat Completions endpoint, answering as each lens of the council: security
 * finds the traversal, correctness the page offset and a wrong NaN claim, and the tests lens's calls
 * fail (HTTP 400), so the council goes on without it. As a critic it disputes the NaN claim.
 */
function reviewer(request: RecordedRequest): OpenAIMockReply {
  const { system, text } = asked(request);
  if (!system.startsWith(REVIEWER_SYSTEM_PROMPT))
    return { kind: "error", error: { status: 400, message: "not a reviewer's request" } };
  if (text.includes('"verdicts"')) {
    const shown = [...text.matchAll(/^(F\d+)\. \S+:\d+ — (.+)$/gm)];
    const verdicts = shown.map(([, id, claim]) =>
      /NaN/.test(claim!)
        ? { id, verdict: "dispute", reason: "the ?? 1 default covers a missing page" }
        : { id, verdict: "confirm", reason: "reproduced" },
    );
    return { text: JSON.stringify({ verdicts }), usage: USAGE };
  }
  const lens = /Your lens: ([^.]+)\./.exec(text)?.[1];
  if (lens === "security")
    return {
      text: JSON.stringify({ findings: [finding(9, "path traversal through req.params.name", 0.9)] }),
      usage: USAGE,
    };
  if (lens === "correctness")
    return {
      text: JSON.stringify({
        findings: [finding(19, "page 1 skips the first page", 0.85), finding(16, "page is NaN without ?page=", 0.65)],
      }),
      usage: USAGE,
    };
  return { kind: "error", error: { status: 400, message: "this deployment does not review tests" } };
}

let server: Awaited<ReturnType<typeof startOpenAIMockServer>>;
beforeAll(async () => {
  server = await startOpenAIMockServer(reviewer);
});
afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

async function project(): Promise<{ cwd: string; sandbox: string }> {
  const cwd = await tempDir("x-agent-test-review-endpoint-");
  const sandbox = join(cwd, "box");
  await mkdir(join(sandbox, "src"), { recursive: true });
  await writeFile(join(sandbox, REVIEW_CHANGE.path), REVIEW_CHANGE.content);
  return { cwd, sandbox };
}

const endpoint = () => ["--base-url", server.baseUrl, "--api-key", "test", "--model", "m", "--price", "m=1/2"];
const objective = "Review this change: find all the bugs in src/uploads.js.";

describe("x-agent run --mode council against an OpenAI-compatible server", { timeout: 180_000 }, () => {
  it(
    "reviews the file over the wire: a failing reviewer is reported and the rest go " +
      "on, the disputed finding is dropped, the cost is the calls' usage at --price",
    async () => {
      const { cwd, sandbox } = await project();
      const before = server.requests.length;
      const run = await runCli(
        [
          "run",
          objective,
          "--mode",
          "council",
          "--file",
          REVIEW_CHANGE.path,
          "--sandbox",
          sandbox,
          ...endpoint(),
          "--json",
        ],
        { cwd },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "route")[0]).toMatchObject({ mode: "council" });
      expect(ofType(events, "route")[0]!.reason).toMatch(/^open-ended review/);

      const council = ofType(events, "council")[0]!;
      expect(council).toMatchObject({ label: "review", status: "completed", rounds: 1, stoppedBecause: "round_cap" });
      // A failed reviewer says why: its run's terminal code (the server answered 400), in --json and on screen.
      expect(council.reviewers.map((r) => [r.name, r.status, r.code, r.findings])).toEqual([
        ["security", "completed", "completed", 1],
        ["correctness", "completed", "completed", 2],
        ["tests", "failed", "model_error", 0],
      ]);
      expect(council.findings.map((f) => [f.location, f.reported, f.score])).toEqual([
        ["src/uploads.js:9", true, 96],
        ["src/uploads.js:19", true, 94],
        ["src/uploads.js:16", false, 33],
      ]);
      expect(council.findings[2]!.disputedBy).toEqual([
        { reviewer: "security", reason: "the ?? 1 default covers a missing page" },
      ]);

      // Three reviews (one refused by the server, so never billed) and two critiques, every one on the wire.
      const bodies = server.bodies().slice(before);
      expect(bodies).toHaveLength(5);
      expect(council.modelCalls).toBe(5);
      expect(bodies.every((body) => body.model === "m")).toBe(true);
      expect(bodies[0]!.tools).toBeUndefined();
      const billed = 4;
      expect(council.summary.tokens).toBe(billed * (USAGE.prompt + USAGE.completion));
      expect(council.summary.tokensEstimated).toBe(false);
      expect(council.summary.costMicroUsd).toBe(billed * CALL_MICRO_USD);
      const ends = ofType(events, "model_call").filter((m) => m.phase === "end");
      expect(ends.every((m) => m.speaker === "reviewer")).toBe(true);
      // The refused call's event carries the brain's estimate of its prompt, which no total counts: no provider served
      // it.
      const refused = ends.filter((m) => m.stopReason === "error");
      expect(refused.map((m) => m.errorKind)).toEqual(["bad_request"]);
      const served = ends.filter((m) => m.stopReason !== "error");
      expect(served.reduce((n, m) => n + (m.tokens ?? 0), 0)).toBe(council.summary.tokens);
      expect(served.reduce((n, m) => n + (m.costMicroUsd ?? 0), 0)).toBe(council.summary.costMicroUsd);
      // Each reviewer's share: two billed passes for the two that worked, nothing for the refused one.
      expect(council.reviewers.map((r) => [r.runs, r.tokens, r.costMicroUsd])).toEqual([
        [2, 2200, 2 * CALL_MICRO_USD],
        [2, 2200, 2 * CALL_MICRO_USD],
        [1, 0, 0],
      ]);
      expect(ofType(events, "summary")[0]!.rows).toEqual([council.summary]);
    },
  );

  it("answers with the reported findings on stdout, the table and progress on stderr", async () => {
    const { cwd, sandbox } = await project();
    const run = await runCli(
      ["run", objective, "--mode", "council", "--file", REVIEW_CHANGE.path, "--sandbox", sandbox, ...endpoint()],
      { cwd },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "src/uploads.js:9 [high] path traversal through req.params.name " +
        "(score 96; found by security; confirmed by correctness)",
      "src/uploads.js:19 [high] page 1 skips the first page (score 94; found by correctness; confirmed by security)",
      "",
    ]);
    expect(run.stderr).toMatch(
      /│ F\d │ src\/uploads\.js:16 │ page is NaN without \?page= +│ correctness │ — +│ security +│ +33 │ dropped +│/,
    );
    expect(run.stderr).toMatch(/tests \(lens: tests and performance\): failed \(model error\) — 0 findings of its own/);
    expect(run.stderr).toMatch(/│ review │ completed │\s+4 │\s+4400 │ \$0\.004800 │/);
  });

  it("refuses a file outside the sandbox, and a council without files, before any model is called", async () => {
    const { cwd, sandbox } = await project();
    const before = server.requests.length;
    const outside = await runCli(
      ["run", objective, "--mode", "council", "--file", "../../etc/passwd", "--sandbox", sandbox, ...endpoint()],
      { cwd },
    );
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--file \.\.\/\.\.\/etc\/passwd: "\.\.\/\.\.\/etc\/passwd" is outside the sandbox/);
    const none = await runCli(["run", objective, "--mode", "council", ...endpoint()], { cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--mode council needs the files to review/);
    expect(server.requests.length).toBe(before);
  });

  it(
    "without --mode, a review objective runs the task " + "loop, with routeTask's hint that a council suits it",
    async () => {
      const { cwd, sandbox } = await project();
      // This server answers only reviewers: the agent's own call is refused, so the run fails — after the hint.
      const run = await runCli(["run", objective, "--no-teacher", "--sandbox", sandbox, ...endpoint(), "--json"], {
        cwd,
      });
      expect(run.code).toBe(1);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "note").map((n) => n.text)).toContain(
        "routeTask: open-ended review: no answer to check, breadth and critique find more — " +
          "this run is the task loop; --mode council --file <path> runs a review council instead",
      );
      expect(ofType(events, "council")).toEqual([]);
      expect(ofType(events, "result")[0]!.summary.status).toBe("failed");
    },
  );
});
