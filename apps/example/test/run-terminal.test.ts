import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startOpenAIMockServer, type RecordedRequest } from "@x/brain-openai/testing";
import { TEACHER_PROMPT } from "@x/teacher";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, removeTempDirs, runCli, spawnCollect, tempDir } from "./cli-helpers";
import { screenLines, shellQuote, startCli, startOnTerminal } from "./live-process";

afterAll(removeTempDirs);

type Message = { role: string; content?: unknown };
const messagesOf = (request: RecordedRequest) => (request.body as { messages?: Message[] }).messages ?? [];
const toolResults = (request: RecordedRequest) => messagesOf(request).filter((m) => m.role === "tool").length;
const usage = { prompt: 1_000, completion: 100 };

/** `x-agent run` on the server, student alone, priced so that a run costs something. */
function runArgs(baseUrl: string, objective: string, ...extra: string[]): string[] {
  return [
    "run",
    objective,
    "--base-url",
    baseUrl,
    "--api-key",
    "test-key",
    "--model",
    "m",
    "--price",
    "m=1/2",
    "--no-teacher",
    ...extra,
  ];
}

describe("x-agent run on a terminal and in pipes (spawned processes)", { timeout: 180_000 }, () => {
  it("streams the model's text to stdout as it arrives, while progress goes to stderr", async () => {
    let release!: () => void;
    const secondTurn = new Promise<void>((resolve) => (release = resolve));
    const server = await startOpenAIMockServer(async (request) => {
      if (toolResults(request) === 0)
        return {
          text: ["Looking at ", "the sandbox."],
          toolCalls: [{ id: "l1", name: "list_files", arguments: { path: "." } }],
          usage,
        };
      await secondTurn; // held until the test has seen the first turn's text on stdout
      return { text: ["It is ", "empty."], usage };
    });
    try {
      const cwd = await tempDir("x-agent-test-stream-");
      const cli = startCli(runArgs(server.baseUrl, "What is in the sandbox?"), { cwd });
      await cli.waitFor(/Looking at the sandbox\.\n/, "stdout");
      expect(cli.stdout).toBe("Looking at the sandbox.\n"); // live: the run is still waiting for its next turn
      release();
      expect((await cli.exited).code).toBe(0);
      expect(cli.stdout).toBe("Looking at the sandbox.\nIt is empty.\n");
      expect(cli.stderr).toMatch(/^x-agent run — openai at /);
      expect(cli.stderr).toContain("agent   → list_files");
      expect(cli.stderr).toMatch(/✔ completed — 2 turns, 2200 tokens, \$0\.0024/);
      expect(cli.stderr).toContain("│ run │ completed │     2 │   2200 │ $0.002400 │");
      expect(cli.stderr).not.toContain("It is empty."); // the answer is on stdout, once
    } finally {
      await server.close();
    }
  });

  it("`x-agent run … > answer.txt` leaves the answer, and only the answer, in the file", async () => {
    const server = await startOpenAIMockServer(() => ({ text: ["Forty", "-two."], usage }));
    try {
      const cwd = await tempDir("x-agent-test-redirect-");
      const command = [BIN, ...runArgs(server.baseUrl, "The answer?")].map(shellQuote).join(" ");
      // Asynchronously: the loopback server answers from this process.
      const run = await spawnCollect("sh", ["-c", `${shellQuote(process.execPath)} ${command} > answer.txt`], {
        cwd,
        env: cleanEnv({ TMPDIR: cwd }),
      });
      expect(run.code).toBe(0);
      expect(readFileSync(join(cwd, "answer.txt"), "utf8")).toBe("Forty-two.\n");
      expect(run.stderr).toContain("✔ completed");
    } finally {
      await server.close();
    }
  });

  it("Ctrl-C on a terminal ends the run aborted, with what it cost so far", async () => {
    let hung!: () => void;
    const waiting = new Promise<void>((resolve) => (hung = resolve));
    const server = await startOpenAIMockServer((request) => {
      if (toolResults(request) === 0)
        return { toolCalls: [{ id: "l1", name: "list_files", arguments: { path: "." } }], usage };
      hung();
      return { kind: "hang" };
    });
    try {
      const cwd = await tempDir("x-agent-test-ctrl-c-");
      const command = [process.execPath, BIN, ...runArgs(server.baseUrl, "List the files")].map(shellQuote).join(" ");
      const terminal = startOnTerminal(command, { cwd, env: cleanEnv({ NO_COLOR: "1", TMPDIR: cwd }), columns: 120 });
      await waiting;
      await terminal.waitFor(/thinking…/);
      terminal.child.stdin.write("\x03");
      const { code } = await terminal.exited;
      const screen = screenLines(terminal.stdout).join("\n");
      expect(screen).toContain("Ctrl-C: stopping the run");
      // The first turn's billed 1100 tokens; the aborted call was never served, so it bills nothing.
      expect(screen).toMatch(/✘ aborted — 1 turns, 1100 tokens, \$0\.001200/);
      expect(screen).toMatch(/│ run │ aborted │ +1 │ +1100 │ \$0\.001200 │/);
      expect(code).toBe(130);
    } finally {
      await server.close();
    }
  });

  it("Ctrl-C at the approval prompt parks the call instead of losing it; resume finishes it", async () => {
    const server = await startOpenAIMockServer((request) =>
      toolResults(request) === 0
        ? { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes.md", content: "hi\n" } }], usage }
        : { text: "Written.", usage },
    );
    try {
      const cwd = await tempDir("x-agent-test-park-on-ctrl-c-");
      const cli = startCli(runArgs(server.baseUrl, "Write notes.md", "--ask"), { cwd });
      await cli.waitFor(/\[y\]es \/ \[n\]o \/ \[p\]ark it for later \/ \[v\]iew all of it: $/, "stderr");
      cli.interrupt();
      expect((await cli.exited).code).toBe(0);
      expect(cli.stderr).toContain("Ctrl-C: the call waiting for approval is parked");
      expect(cli.stderr).toMatch(
        /⏸ write_file waits for a person's approval\n {11}\{"path":"notes\.md","content":"hi\\n"\}/,
      );
      const parkedDir = join(cwd, ".x-agent", "parked");
      const [file] = readdirSync(parkedDir);
      expect(file).toMatch(/\.json$/);
      const sandbox = join(cwd, ".x-agent", "sandbox");
      expect(existsSync(join(sandbox, "notes.md"))).toBe(false);

      const resumed = await runCli(["resume", join(parkedDir, file!), "--approve", "--api-key", "test-key"], { cwd });
      expect(resumed.code).toBe(0);
      expect(readFileSync(join(sandbox, "notes.md"), "utf8")).toBe("hi\n");
    } finally {
      await server.close();
    }
  });

  it("the approval prompt asks again on an answer it does not understand", async () => {
    const server = await startOpenAIMockServer((request) =>
      toolResults(request) === 0
        ? { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "a.txt", content: "a" } }], usage }
        : { text: "Done.", usage },
    );
    try {
      const cwd = await tempDir("x-agent-test-reask-");
      const run = await runCli(runArgs(server.baseUrl, "Write a.txt", "--ask"), { cwd, stdin: "maybe\n\nyes\n" });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('"maybe" is not an answer: y approves, n denies, p parks it');
      expect(run.stderr).toContain('"" is not an answer');
      expect(readFileSync(join(cwd, ".x-agent", "sandbox", "a.txt"), "utf8")).toBe("a");
      expect(run.stdout).toBe("Done.\n");
    } finally {
      await server.close();
    }
  });

  it.each([
    ["auth", (url: string) => url],
    ["network", () => "http://127.0.0.1:9/v1"],
  ] as const)("a run that fails on %s does not call the teacher, and never says it advised", async (kind, baseUrl) => {
    const server = await startOpenAIMockServer(() => ({
      kind: "error",
      error: { status: 401, message: "invalid api key" },
    }));
    try {
      const cwd = await tempDir(`x-agent-test-${kind}-`);
      const args = runArgs(baseUrl(server.baseUrl), "Anything").filter((arg) => arg !== "--no-teacher");
      const run = await runCli([...args, "--teacher-model", "big"], { cwd });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/✘ failed/);
      expect(run.stderr).not.toContain("escalation");
      expect(run.stderr).not.toContain("teacher advises");
      expect(server.requests.some((r) => JSON.stringify(r.body).includes(TEACHER_PROMPT.slice(0, 60)))).toBe(false);
      if (kind === "auth") expect(server.requests.length).toBeGreaterThan(0);
      else expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe("x-agent demo output (spawned processes)", { timeout: 180_000 }, () => {
  it("a closed pipe (`| head -n 1`) ends it quietly: exit 0, no EPIPE trace", async () => {
    const cwd = await tempDir("x-agent-test-epipe-");
    const node = shellQuote(process.execPath);
    const script = `${node} ${shellQuote(BIN)} demo 2>err.txt | head -n 1; echo "\${PIPESTATUS[0]}" > code.txt`;
    const run = spawnSync("bash", ["-c", script], {
      cwd,
      env: cleanEnv({ TMPDIR: cwd, X_AGENT_PARK_KEY: "epipe-test-park-key-0123" }),
      encoding: "utf8",
    });
    expect(run.stdout).toMatch(/^x-agent/);
    expect(run.stdout.split("\n")).toHaveLength(2);
    expect(readFileSync(join(cwd, "err.txt"), "utf8")).toBe("");
    expect(readFileSync(join(cwd, "code.txt"), "utf8").trim()).toBe("0");
  });

  it("on a terminal 60 columns wide the closing table fits, and estimated token counts say so", async () => {
    const cwd = await tempDir("x-agent-test-width-");
    const command = [process.execPath, BIN, "demo", "auto-mode"].map(shellQuote).join(" ");
    const env = cleanEnv({ NO_COLOR: "1", TMPDIR: cwd, X_AGENT_PARK_KEY: "width-test-park-key-0123" });
    const terminal = startOnTerminal(command, { cwd, env, columns: 60 });
    expect((await terminal.exited).code).toBe(0);
    const lines = screenLines(terminal.stdout);
    const start = lines.findIndex((line) => line.startsWith("auto-mode:"));
    const table = lines.slice(start, lines.findIndex((line, i) => i > start && line.startsWith("~ estimated")) + 1);
    expect(table[0]).toMatch(/^auto-mode: completed · 3 turns · ~\d+ tokens/);
    expect(table.filter((line) => [...line].length > 60)).toEqual([]);
    expect(lines.join("\n")).toMatch(/✔ completed — 3 turns, ~\d+ tokens \(estimated\)/);
    expect(table.join("\n")).toContain("~ estimated: the provider");
  });
});
