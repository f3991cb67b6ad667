import { execFileSync } from "node:child_process";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpToolset } from "./index";
import { autoRunner, resultText, streamAll, toolResults } from "../test/harness";
import { everythingServer } from "../test/servers";

let toolset: McpToolset;
beforeAll(async () => {
  // Every tool allowed by the host, so these tests are about the calls themselves.
  toolset = await connectMcp([everythingServer({ policy: { default: "allow" } })]);
});
afterAll(() => toolset.close());

/** One call of one tool through a run; the model then ends. */
async function callOnce(name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const { runner } = autoRunner([fauxToolCall(`everything__${name}`, args), fauxText("done")]);
  return streamAll(runner, { objective: `call ${name}`, tools: toolset.tools() }, signal);
}

/** The pid of this test process's server-everything child. */
function serverPid(): number {
  const out = execFileSync("pgrep", ["-P", String(process.pid), "-f", "server-everything"], { encoding: "utf8" });
  return Number(out.trim().split("\n")[0]);
}

describe("@modelcontextprotocol/server-everything over stdio", () => {
  it("text results reach the model", async () => {
    const { result } = await callOnce("echo", { message: "hello" });
    expect(resultText(toolResults(result.messages)[0]!)).toBe("Echo: hello");
    const sum = await callOnce("get-sum", { a: 2, b: 40 });
    expect(resultText(toolResults(sum.result.messages)[0]!)).toContain("42");
  });

  it("structured content is kept whole for the host, beside the text the model reads", async () => {
    const { result } = await callOnce("get-structured-content", { location: "Chicago" });
    const [message] = toolResults(result.messages);
    expect(message!.details).toMatchObject({
      server: "everything",
      tool: "get-structured-content",
      structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
    });
    expect(JSON.parse(resultText(message!))).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
  });

  it("images stay images", async () => {
    const { result } = await callOnce("get-tiny-image", {});
    const image = toolResults(result.messages)[0]!.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect((image as { data: string }).data.length).toBeGreaterThan(100);
  });

  it("a tool that fails on the server is an error result, and the run goes on", async () => {
    const { result } = await callOnce("get-resource-reference", { resourceType: "Text", resourceId: 1.5 });
    const [message] = toolResults(result.messages);
    expect(message!.isError).toBe(true);
    expect(resultText(message!)).toContain("Invalid resourceId");
    expect(result.status).toBe("completed");
  });

  it("arguments off the server's schema never reach it (an enum the model got wrong)", async () => {
    const { result } = await callOnce("get-structured-content", { location: "Paris" });
    const [message] = toolResults(result.messages);
    expect(message).toMatchObject({ isError: true, details: { error: "invalid_arguments" } });
    expect(resultText(message!)).toContain('location: must be one of "New York", "Chicago", "Los Angeles"');
  });

  it("progress notifications stream as tool_progress events", async () => {
    const { events, result } = await callOnce("trigger-long-running-operation", { duration: 0.3, steps: 3 });
    const progress = events.flatMap((e) => (e.type === "tool_progress" ? [[e.progress, e.total]] : []));
    // The SDK reads a report that arrives in the same chunk as the result after the result, and
    // drops it: the last step's report is best-effort, the earlier ones arrive in order.
    expect(progress.slice(0, 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(progress.length).toBeLessThanOrEqual(3);
    expect(resultText(toolResults(result.messages)[0]!)).toContain("Long running operation completed");
  });

  it("a long call is cancelled by the run's abort, promptly", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = callOnce("trigger-long-running-operation", { duration: 30, steps: 30 }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const { result } = await pending;
    expect(result.status).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(10_000);
    const after = await callOnce("echo", { message: "still connected" });
    expect(resultText(toolResults(after.result.messages)[0]!)).toBe("Echo: still connected");
  });

  it("a crash mid-call ends that call as a typed error; the run goes on, the next call reconnects", async () => {
    const pid = serverPid();
    const { runner } = autoRunner([
      fauxToolCall("everything__trigger-long-running-operation", { duration: 30, steps: 30 }),
      fauxText("The server went away; I stopped."),
    ]);
    const pending = runner.runTask({ objective: "run the long job", tools: toolset.tools() });
    setTimeout(() => process.kill(pid, "SIGKILL"), 300);
    const result = await pending;
    expect(result.status).toBe("completed");
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      details: { error: "server_disconnected", server: "everything" },
    });
    const after = await callOnce("echo", { message: "back" });
    expect(resultText(toolResults(after.result.messages)[0]!)).toBe("Echo: back");
    expect(serverPid()).not.toBe(pid);
  });
});
