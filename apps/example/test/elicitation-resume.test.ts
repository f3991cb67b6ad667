import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { startOpenAIMockServer, type RecordedRequest } from "@x/brain-openai/testing";
import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

/** The real `@modelcontextprotocol/server-everything`: its `trigger-elicitation-request` asks the user for details. */
const EVERYTHING = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const TOOL = "mcp__trigger-elicitation-request";

type WireMessage = { role: string; content?: unknown };
const textOf = (message: WireMessage | undefined) =>
  typeof message?.content === "string"
    ? message.content
    : Array.isArray(message?.content)
      ? (message.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("")
      : "";

afterAll(removeTempDirs);

describe("x-agent resume answers a tool's question", { timeout: 180_000 }, () => {
  it("an MCP server elicits mid-call: the run parks, resume shows the question, --answer ends it once", async () => {
    const model = await startOpenAIMockServer((request: RecordedRequest) => {
      const messages = (request.body as { messages: WireMessage[] }).messages;
      if (textOf(messages.find((m) => m.role === "system")) === CLASSIFIER_SYSTEM_PROMPT)
        return { text: "<block>no</block>" };
      const results = messages.filter((m) => m.role === "tool");
      if (results.length === 0) return { toolCalls: [{ id: "call_1", name: TOOL, arguments: {} }] };
      return { text: `The server said: ${textOf(results.at(-1)).slice(0, 200)}` };
    });
    try {
      const cwd = await tempDir("x-agent-test-elicit-");
      const sandbox = join(cwd, "box");
      await mkdir(sandbox);
      const env = cleanEnv({ OPENAI_API_KEY: "test" });
      const endpoint = ["--base-url", model.baseUrl, "--model", "m", "--no-teacher", "--no-ask", "--json"];
      const mcp = ["--mcp", `${process.execPath} ${EVERYTHING} stdio`];
      const run = await runCli(["run", "Ask me for my details", ...endpoint, ...mcp, "--sandbox", sandbox], {
        cwd,
        env,
      });
      expect(run.code).toBe(0);
      const parked = ofType(parseEvents(run.stdout), "parked")[0]!;
      // Nobody at a terminal to ask: the question parks like an approval; the model never answered it.
      expect(parked.kind).toBe("elicitation");
      expect(parked.question?.message).toBe("Please provide inputs for the following fields:");
      expect(parked.resume).toContain("--answer");

      // Shown, nothing decided: the server's question and its form, the way to answer it.
      const shown = await runCli(["resume", parked.file, "--json"], { cwd, env });
      expect(shown.code).toBe(0);
      const pending = ofType(parseEvents(shown.stdout), "pending_call")[0]!;
      expect(Object.keys(pending.question!.schema)).toContain("properties");
      expect(pending.decide).toContain("--answer");

      // An answer that is not a JSON object is refused before anything starts.
      const bad = await runCli(["resume", parked.file, "--answer", "Ada", "--json"], { cwd, env });
      expect(bad.code).toBe(2);

      // The answer: the MCP server is started again, the call re-runs, the server gets the answer.
      const answer = JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com" });
      const resumed = await runCli(["resume", parked.file, "--answer", answer, "--json"], { cwd, env });
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      const events = parseEvents(resumed.stdout);
      const results = ofType(events, "tool_result");
      expect(results.map((r) => [r.name, r.isError])).toEqual([[TOOL, false]]);
      expect(results[0]!.text).toContain("Ada Lovelace");
      expect(ofType(events, "result")[0]!.summary.status).toBe("completed");

      // Answered once: the same park again is refused.
      const again = await runCli(["resume", parked.file, "--answer", answer, "--json"], { cwd, env });
      expect(again.code).not.toBe(0);
      expect(again.stdout + again.stderr).toMatch(/replayed|already/);
    } finally {
      await model.close();
    }
  });
});
