import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import { defineTool } from "@x/runner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectMcp, McpError, type McpToolset } from "./index";
import { ALLOW, BLOCK, autoRunner, resultText, toolResults } from "../test/harness";
import { filesystemServer } from "../test/servers";

// The server resolves symlinks in its allowed folder (/tmp may be one); paths we send must match.
const folder = realpathSync(mkdtempSync(join(tmpdir(), "x-mcp-fs-")));
let toolset: McpToolset;
beforeAll(async () => {
  writeFileSync(join(folder, "notes.txt"), "ship on friday\n");
  // The host trusts this server's annotations: its read-only tools run without asking anyone.
  toolset = await connectMcp([filesystemServer(folder, { policy: { annotations: "trusted" } })]);
});
afterAll(async () => {
  await toolset.close();
  rmSync(folder, { recursive: true, force: true });
});

const tool = (name: string) => toolset.tools().find((t) => t.name === name)!;

describe("@modelcontextprotocol/server-filesystem over stdio", () => {
  it("its tools arrive namespaced, read-only ones allowed, writes left to auto mode", () => {
    expect(tool("fs__read_text_file")).toMatchObject({ permission: "allow", readOnly: true });
    // write_file says a second identical write changes nothing more; edit_file does not.
    expect(tool("fs__write_file")).toMatchObject({ permission: "auto", readOnly: false, idempotent: true });
    expect(tool("fs__edit_file")).toMatchObject({ permission: "auto", readOnly: false });
    expect(tool("fs__edit_file").idempotent).toBeUndefined();
  });

  it("a read runs without the classifier and returns the file", async () => {
    const { runner, classifier } = autoRunner([
      fauxToolCall("fs__read_text_file", { path: join(folder, "notes.txt") }),
      fauxText("It says ship on friday."),
    ]);
    const result = await runner.runTask({ objective: "what do my notes say?", tools: toolset.tools() });
    expect(result.status).toBe("completed");
    const [read] = toolResults(result.messages);
    expect(read).toMatchObject({ isError: false, details: { server: "fs", tool: "read_text_file" } });
    expect(resultText(read!)).toBe("ship on friday\n");
    expect(classifier.calls).toHaveLength(0);
  });

  it("a write the classifier blocks is not made; the run goes on and ends", async () => {
    const target = join(folder, "blocked.txt");
    const { runner, classifier } = autoRunner(
      [fauxToolCall("fs__write_file", { path: target, content: "rm -rf" }), fauxText("I was not allowed.")],
      [BLOCK("the user asked only to read")],
    );
    const result = await runner.runTask({ objective: "read my notes", tools: toolset.tools() });
    expect(result.status).toBe("completed");
    expect(classifier.calls).toHaveLength(1);
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true, details: { error: "blocked" } });
    expect(existsSync(target)).toBe(false);
  });

  it("a write the classifier allows is made by the server", async () => {
    const target = join(folder, "todo.txt");
    const { runner, classifier } = autoRunner(
      [fauxToolCall("fs__write_file", { path: target, content: "buy milk" }), fauxText("Written.")],
      [ALLOW],
    );
    const result = await runner.runTask({ objective: "write 'buy milk' to todo.txt", tools: toolset.tools() });
    expect(result.status).toBe("completed");
    expect(classifier.calls).toHaveLength(1);
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: false });
    expect(readFileSync(target, "utf8")).toBe("buy milk");
  });

  it("a path outside the allowed folder is the server's error result, and the run goes on", async () => {
    const { runner } = autoRunner([
      fauxToolCall("fs__read_text_file", { path: "/etc/passwd" }),
      fauxText("That file is out of reach."),
    ]);
    const result = await runner.runTask({ objective: "read /etc/passwd", tools: toolset.tools() });
    expect(result.status).toBe("completed");
    const [denied] = toolResults(result.messages);
    expect(denied!.isError).toBe(true);
    expect(resultText(denied!)).toMatch(/outside allowed directories|Access denied/i);
  });

  it("a host tool may not take an MCP tool's name", () => {
    const own = defineTool({ name: "fs__write_file", description: "mine", input: z.object({}), execute: () => "x" });
    expect(() => toolset.withTools([own])).toThrow(McpError);
    const other = defineTool({ name: "shell", description: "mine", input: z.object({}), execute: () => "x" });
    expect(toolset.withTools([other]).map((t) => t.name)[0]).toBe("shell");
  });
});
