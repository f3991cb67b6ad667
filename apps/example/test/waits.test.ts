// Waits as a user sees them: the CLI spawned as printed against an OpenAI-compatible server on loopback
// that answers 429 with `retry-after: 2` before it answers, or never answers at all. Each retry the
// library makes is one line ("retrying in 2 s (1/2)"), in --json one `retry` event; `--timeout` cuts a
// call to a silent server after that many seconds; a mistyped flag is refused with the one it meant.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { startOpenAIMockServer, type OpenAIMockReply } from "@x/brain-openai/testing";
import { afterAll, describe, expect, it } from "vitest";
import { ofType, parseEvents, removeTempDirs, runCli, tempDir } from "./cli-helpers";

afterAll(removeTempDirs);

const RATE_LIMITED: OpenAIMockReply = {
  kind: "error",
  error: { status: 429, message: "Rate limit reached", type: "rate_limit_error", headers: { "retry-after": "2" } },
};

async function runAgainst(script: OpenAIMockReply[], extra: string[]) {
  const server = await startOpenAIMockServer(script);
  try {
    const cwd = await tempDir("x-agent-test-waits-");
    const sandbox = join(cwd, "box");
    await mkdir(sandbox);
    const args = ["run", "Say done.", "--base-url", server.baseUrl, "--api-key", "test", "--model", "m"];
    const run = await runCli([...args, "--sandbox", sandbox, "--no-teacher", ...extra], { cwd });
    return { run, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

describe("x-agent run while the server asks it to wait", { timeout: 120_000 }, () => {
  it("prints one line per retry, with the wait the server asked for and the count, then completes", async () => {
    const { run, requests } = await runAgainst([RATE_LIMITED, { text: "done" }], []);
    expect(run.code).toBe(0);
    const lines = `${run.stdout}${run.stderr}`.split("\n").filter((line) => line.includes("retrying"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/retry\s+m: rate limited — retrying in 2 s \(1\/2\)/);
    expect(requests).toBe(2);
  });

  it("--json: one retry event per retry, then the result", async () => {
    const { run } = await runAgainst([RATE_LIMITED, RATE_LIMITED, { text: "done" }], ["--json"]);
    expect(run.code).toBe(0);
    const events = parseEvents(run.stdout);
    expect(ofType(events, "retry")).toEqual([
      { type: "retry", model: "m", attempt: 1, of: 2, delayMs: 2000, errorKind: "rate_limited" },
      { type: "retry", model: "m", attempt: 2, of: 2, delayMs: 2000, errorKind: "rate_limited" },
    ]);
    expect(ofType(events, "result")[0]).toMatchObject({ output: "done" });
  });

  it("--timeout 1: a call to a silent server is cut after a second and retried, then the run fails", async () => {
    const { run, requests } = await runAgainst(
      [{ kind: "hang" }, { kind: "hang" }, { kind: "hang" }],
      ["--timeout", "1"],
    );
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n").filter((line) => line.includes("retrying"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/m: timeout — retrying in (\d+ ms|[\d.]+ s) \(1\/2\)/);
    expect(lines[1]).toMatch(/\(2\/2\)$/);
    expect(requests).toBe(3);
  });

  it("a retry-after longer than the CLI waits: no retry, and it says why", async () => {
    const long: OpenAIMockReply = {
      kind: "error",
      error: {
        status: 429,
        message: "Rate limit reached",
        type: "rate_limit_error",
        headers: { "retry-after": "120" },
      },
    };
    const { run, requests } = await runAgainst([long, { text: "never asked" }], []);
    expect(run.code).toBe(1);
    expect(requests).toBe(1);
    expect(run.stderr).not.toContain("retrying");
    expect(run.stderr).toContain(
      "the server asks to wait 120 s before another try, longer than the 5 s this CLI waits, so it does not retry",
    );
  });

  it("a stream cut mid tool call: the calls that never ran are not shown as made", async () => {
    const cut: OpenAIMockReply = {
      toolCalls: [{ id: "c1", name: "list_files", arguments: { path: "." } }],
      cutAfter: 3,
      ending: "destroy",
    };
    const { run, requests } = await runAgainst([cut, cut, cut], ["--json"]);
    expect(requests).toBe(3);
    const events = parseEvents(run.stdout);
    expect(ofType(events, "tool_call")).toEqual([]);
    expect(ofType(events, "tool_result")).toEqual([]);
    expect(ofType(events, "retry").map((e) => e.attempt)).toEqual([1, 2]);
    expect(ofType(events, "result")[0]!.summary.status).toBe("failed");
  });

  it("a mistyped flag is refused with the flag it meant", async () => {
    const cwd = await tempDir("x-agent-test-flag-");
    const run = await runCli(["run", "Say done.", "--tiemout", "5"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option '--tiemout'");
    expect(run.stderr).toContain("did you mean --timeout?");
  });
});
