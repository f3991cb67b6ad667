import { join } from "node:path";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { startAnthropicMockServer } from "@x/brain-anthropic/testing";
import { startOpenAIMockServer, type RecordedRequest } from "@x/brain-openai/testing";
import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { VERIFIER_PROMPT } from "@x/teacher";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

function messagesOf(request: RecordedRequest): WireMessage[] {
  return (request.body as { messages?: WireMessage[] }).messages ?? [];
}

function textOf(message: WireMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) return message.content.map((part: { text?: string }) => part.text ?? "").join("");
  return "";
}

afterAll(removeTempDirs);

describe(
  "x-agent run against an OpenAI-compatible server (the brain tests' loopback provider)",
  { timeout: 180_000 },
  () => {
    it(
      "drives the real OpenAI brain: tool calls, auto mode's classifier " +
        "over the wire, teacher mode's verifier, the closing table",
      async () => {
        // A model on the other end of real HTTP + SSE. Its replies depend on what it is sent: the
        // classifier's instructions, the verifier's, or the agent's conversation so far.
        const server = await startOpenAIMockServer((request) => {
          const messages = messagesOf(request);
          const system = textOf(messages.find((m) => m.role === "system"));
          if (system === CLASSIFIER_SYSTEM_PROMPT) {
            const asked = textOf(messages.at(-1));
            return /rm -rf/.test(asked)
              ? { text: "<block>yes</block><reason>deletes the build output without being asked</reason>" }
              : { text: "<block>no</block>" };
          }
          if (system === VERIFIER_PROMPT) return { text: '{"pass": true, "reason": "it names the files"}' };
          const toolTurns = messages.filter((m) => m.role === "tool").length;
          if (toolTurns === 0)
            return { toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "rm -rf build" } }] };
          if (toolTurns === 1) return { toolCalls: [{ id: "call_2", name: "list_files", arguments: { path: "." } }] };
          return { text: "The sandbox holds hello.txt." };
        });
        try {
          const cwd = await tempDir("x-agent-test-endpoint-");
          const sandbox = join(cwd, "box");
          await mkdir(sandbox);
          const run = await runCli(
            [
              "run",
              "What files are in the sandbox?",
              "--base-url",
              server.baseUrl,
              "--api-key",
              "test",
              "--model",
              "m",
              "--sandbox",
              sandbox,
              "--price",
              "m=1/2",
              "--json",
            ],
            { cwd },
          );
          expect(run.stderr).toBe("");
          expect(run.code).toBe(0);
          const events = parseEvents(run.stdout);

          const verdicts = ofType(events, "verdict");
          expect(verdicts.map((v) => [v.tool, v.verdict])).toEqual([["shell", "block"]]);
          expect(verdicts[0]!.reason).toBe("deletes the build output without being asked");
          expect(ofType(events, "tool_result").map((r) => [r.name, r.isError])).toEqual([
            ["shell", true],
            ["list_files", false],
          ]);
          // The default store: .x-agent/strategies.db under the folder the CLI runs in.
          expect(ofType(events, "note").some((n) => n.text.includes(join(cwd, ".x-agent", "strategies.db")))).toBe(
            true,
          );
          expect(ofType(events, "strategies_retrieved")[0]!.hits).toEqual([]);

          const result = ofType(events, "result")[0]!;
          expect(result.output).toBe("The sandbox holds hello.txt.");
          expect(result.summary.status).toBe("completed");
          expect(result.summary.tokens).toBeGreaterThan(0);
          expect(result.summary.costMicroUsd).toBeGreaterThan(0);
          expect(ofType(events, "summary")[0]!.rows).toHaveLength(1);

          const bodies = server.bodies();
          expect(bodies.every((b) => b.model === "m")).toBe(true);
          expect(server.requests.every((r) => r.headers.authorization === "Bearer test")).toBe(true);
          const agentTools = (bodies[0]!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
          expect(agentTools).toEqual(["list_files", "read_file", "write_file", "shell", "delegate"]);
          // Agent turns 1-3, one classification, one verification.
          expect(bodies).toHaveLength(5);
        } finally {
          await server.close();
        }
      },
    );

    it("reads the endpoint from OPENAI_* variables when no flags are given", async () => {
      const server = await startOpenAIMockServer(() => ({ text: "Nothing to do." }));
      try {
        const cwd = await tempDir("x-agent-test-env-");
        const env = cleanEnv({
          OPENAI_BASE_URL: server.baseUrl,
          OPENAI_API_KEY: "from-env",
          OPENAI_MODEL: "env-model",
        });
        const run = await runCli(["run", "Say hello", "--no-teacher", "--json"], { cwd, env });
        expect(run.code).toBe(0);
        const events = parseEvents(run.stdout);
        expect(ofType(events, "result")[0]!.output).toBe("Nothing to do.");
        // --json carries the answer as it streams, delta by delta, then the whole turn.
        const deltas = ofType(events, "text_delta");
        expect(deltas.length).toBeGreaterThan(0);
        expect(deltas.map((d) => d.delta).join("")).toBe("Nothing to do.");
        expect(ofType(events, "turn").at(-1)!.text).toBe("Nothing to do.");
        expect(server.bodies()[0]!.model).toBe("env-model");
        expect(server.requests[0]!.headers.authorization).toBe("Bearer from-env");
      } finally {
        await server.close();
      }
    });
  },
);

describe("x-agent run never prints an API key", { timeout: 180_000 }, () => {
  it("redacts a key the model, a tool result or an error echoes, on --json and on human output", async () => {
    const flagKey = "sk-flag-0123456789abcdef";
    const envKey = "sk-env-fedcba9876543210";
    // A model that repeats what it should not: the key in a tool argument (echoed back in the tool's error) and in
    // its answer.
    const server = await startOpenAIMockServer((request) => {
      const results = messagesOf(request).filter((m) => m.role === "tool");
      if (results.length === 0) return { toolCalls: [{ id: "l1", name: "list_files", arguments: { path: flagKey } }] };
      return { text: `The keys are ${flagKey} and ${envKey}.` };
    });
    try {
      for (const json of [true, false]) {
        const cwd = await tempDir("x-agent-test-redact-");
        const args = [
          "run",
          "Tell me your key",
          "--base-url",
          server.baseUrl,
          `--api-key=${flagKey}`,
          "--model",
          "m",
          "--no-teacher",
          ...(json ? ["--json"] : []),
        ];
        const run = await runCli(args, { cwd, env: cleanEnv({ OPENAI_API_KEY: envKey }) });
        expect(run.code).toBe(0);
        const printed = run.stdout + run.stderr;
        expect(printed).not.toContain(flagKey);
        expect(printed).not.toContain(envKey);
        expect(printed).toContain("The keys are [redacted] and [redacted].");
        expect(printed).toContain("no such folder: [redacted]");
        if (json) expect(() => parseEvents(run.stdout)).not.toThrow();
      }
      expect(server.requests.every((r) => r.headers.authorization === `Bearer ${flagKey}`)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("x-agent run: approvals and the Anthropic wire", { timeout: 180_000 }, () => {
  it(
    "parks a write on a real endpoint and finishes it with " + "resume, reading the key again from the environment",
    async () => {
      const server = await startOpenAIMockServer((request) => {
        const messages = messagesOf(request);
        const results = messages.filter((m) => m.role === "tool");
        if (results.length === 0)
          return { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } }] };
        return { text: `Result: ${textOf(results.at(-1))}` };
      });
      try {
        const cwd = await tempDir("x-agent-test-endpoint-park-");
        const common = ["--base-url", server.baseUrl, "--model", "m", "--no-teacher", "--json"];
        const run = await runCli(["run", "Write hi to hello.txt", ...common], {
          cwd,
          env: cleanEnv({ OPENAI_API_KEY: "key-1" }),
        });
        expect(run.code).toBe(0);
        const parked = ofType(parseEvents(run.stdout), "parked")[0]!;
        expect(parked.file.startsWith(join(cwd, ".x-agent", "parked"))).toBe(true);
        // The key never goes into the park file.
        expect(await readFile(parked.file, "utf8")).not.toContain("key-1");
        const sandbox = join(cwd, ".x-agent", "sandbox");
        expect(existsSync(join(sandbox, "hello.txt"))).toBe(false);

        const resumed = await runCli(["resume", parked.file, "--approve", "--json"], {
          cwd,
          env: cleanEnv({ OPENAI_API_KEY: "key-2" }),
        });
        expect(resumed.code).toBe(0);
        const result = ofType(parseEvents(resumed.stdout), "result")[0]!;
        expect(result.summary.status).toBe("completed");
        expect(result.output).toBe("Result: wrote 3 bytes to hello.txt");
        expect(await readFile(join(sandbox, "hello.txt"), "utf8")).toBe("hi\n");
        expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer key-1", "Bearer key-2"]);
      } finally {
        await server.close();
      }
    },
  );

  it("with --ask, a person answers on stdin: y runs the write now, n refuses it, nothing parks", async () => {
    const server = await startOpenAIMockServer((request) => {
      const results = messagesOf(request).filter((m) => m.role === "tool");
      if (results.length === 0)
        return { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } }] };
      return { text: `Result: ${textOf(results.at(-1))}` };
    });
    try {
      const cwd = await tempDir("x-agent-test-ask-");
      const common = [
        "Write hi to hello.txt",
        "--base-url",
        server.baseUrl,
        "--api-key",
        "k",
        "--model",
        "m",
        "--no-teacher",
        "--ask",
        "--json",
      ];
      const denied = await runCli(["run", ...common], { cwd, stdin: "n\n" });
      expect(denied.code).toBe(0);
      const deniedEvents = parseEvents(denied.stdout);
      expect(ofType(deniedEvents, "approval_request")[0]).toMatchObject({
        tool: "write_file",
        kind: "ask",
        arguments: { path: "hello.txt" },
      });
      expect(ofType(deniedEvents, "parked")).toEqual([]);
      expect(ofType(deniedEvents, "tool_result")[0]).toMatchObject({ name: "write_file", isError: true });
      expect(existsSync(join(cwd, ".x-agent", "sandbox", "hello.txt"))).toBe(false);

      const approved = await runCli(["run", ...common], { cwd, stdin: "y\n" });
      expect(approved.code).toBe(0);
      expect(ofType(parseEvents(approved.stdout), "result")[0]!.output).toBe("Result: wrote 3 bytes to hello.txt");
      expect(await readFile(join(cwd, ".x-agent", "sandbox", "hello.txt"), "utf8")).toBe("hi\n");
    } finally {
      await server.close();
    }
  });

  it("runs on the Anthropic Messages API with --provider anthropic", async () => {
    const server = await startAnthropicMockServer((request) => {
      const messages = (request.body as { messages: Array<{ content: unknown }> }).messages;
      const sawResult = messages.some(
        (m) => Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "tool_result"),
      );
      return sawResult
        ? { blocks: [{ type: "text", text: "The sandbox is empty." }] }
        : { blocks: [{ type: "tool_use", id: "toolu_1", name: "list_files", input: { path: "." } }] };
    });
    try {
      const cwd = await tempDir("x-agent-test-anthropic-");
      const run = await runCli(
        [
          "run",
          "What is in the sandbox?",
          "--provider",
          "anthropic",
          "--base-url",
          server.baseUrl,
          "--api-key",
          "sk-ant-test",
          "--model",
          "claude-test",
          "--no-teacher",
          "--json",
        ],
        { cwd },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "tool_result").map((r) => [r.name, r.isError, r.text])).toEqual([
        ["list_files", false, ". is empty"],
      ]);
      expect(ofType(events, "result")[0]!.output).toBe("The sandbox is empty.");
      // The SDK decides the header (x-api-key, or a bearer token in newer releases); the key gets there.
      for (const request of server.requests)
        expect(`${request.headers["x-api-key"] ?? ""} ${request.headers.authorization ?? ""}`).toContain("sk-ant-test");
      expect(server.requests).toHaveLength(2);
      expect(server.bodies().every((b) => b.model === "claude-test")).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("x-agent command line", { timeout: 60_000 }, () => {
  it("refuses a bad flag with a clear message and exit code 2", async () => {
    const cwd = await tempDir("x-agent-test-flags-");
    const bogus = await runCli(["demo", "--bogus"], { cwd });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--bogus");
    expect(bogus.stderr).toContain('Run "x-agent --help" for usage.');
    expect(bogus.stdout).toBe("");

    const noModel = await runCli(["run", "do it"], { cwd });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/no model: pass --model/);

    const scenario = await runCli(["demo", "nope"], { cwd });
    expect(scenario.code).toBe(2);
    expect(scenario.stderr).toContain('unknown scenario "nope"');
  });

  it("refuses an unreachable --store before any scenario runs, without printing its password", async () => {
    const cwd = await tempDir("x-agent-test-store-");
    const run = await runCli(["demo", "--store", "postgres://someone:hunter2@127.0.0.1:1/db", "--json"], { cwd });
    expect(run.code).toBe(1);
    const events = parseEvents(run.stdout);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "store_unavailable" });
    expect(run.stdout).toContain("postgres://someone:***@127.0.0.1:1/db");
    expect(run.stdout + run.stderr).not.toContain("hunter2");
  });

  it("refuses to run the demo in a folder that has files, and leaves them alone", async () => {
    const cwd = await tempDir("x-agent-test-sandbox-");
    await writeFile(join(cwd, "README.md"), "mine\n");
    const run = await runCli(["demo", "auto-mode", "--sandbox", "."], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--sandbox for the demo must be a new or empty folder");
    expect(run.stdout).toBe("");
    expect(await readFile(join(cwd, "README.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(cwd, "config"))).toBe(false);
  });

  it("prints help and the scenario list", async () => {
    const cwd = await tempDir("x-agent-test-help-");
    const help = await runCli(["--help"], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("x-agent resume <file> [--approve|--deny]");
    const jsonHelp = await runCli(["run", "--help", "--json"], { cwd });
    expect(jsonHelp.code).toBe(0);
    expect(parseEvents(jsonHelp.stdout)).toEqual([
      { type: "help", text: expect.stringContaining("--no-teacher") as unknown },
    ]);
    const list = await runCli(["scenarios", "--json"], { cwd });
    expect(JSON.parse(list.stdout).map((s: { name: string }) => s.name)).toEqual([
      "auto-mode",
      "teacher",
      "memory",
      "approval",
      "mcp",
      "sub-run",
      "review",
    ]);
  });
});
