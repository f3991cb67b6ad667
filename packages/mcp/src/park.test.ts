import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxToolCall } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { createFileParkLedger } from "@x/runner";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcp } from "./index";
import { mcpServerOf } from "./tool-name";
import { autoRunner, resultText, toolResults } from "../test/harness";
import { filesystemServer } from "../test/servers";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "x-mcp-park-")));
const folder = join(dir, "files");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "a park key both processes share";

describe("a parked run holding an MCP call", () => {
  it("names the server and tool, and resumes in another process that connects to the same server", async () => {
    execFileSync("mkdir", ["-p", folder]);
    const target = join(folder, "plan.txt");
    const toolset = await connectMcp([filesystemServer(folder, { policy: { tools: { write_file: "ask" } } })]);
    let parked;
    try {
      const { runner } = autoRunner([fauxToolCall("fs__write_file", { path: target, content: "step 1" })], [], {
        parkKey: KEY,
        parkLedger: createFileParkLedger(join(dir, "ledger")),
      });
      parked = await runner.runTask({ objective: "save the plan", tools: toolset.tools() });
    } finally {
      await toolset.close();
    }
    expect(parked.status).toBe("parked");
    expect(parked.parked!.pending).toMatchObject({ toolName: "fs__write_file", kind: "ask" });
    expect(mcpServerOf(parked.parked!.pending.toolName)).toBe("fs");
    expect(existsSync(target)).toBe(false);

    const parkFile = join(dir, "park.json");
    writeFileSync(parkFile, JSON.stringify(parked.parked));
    const child = fileURLToPath(new URL("../test/resume-child.ts", import.meta.url));
    const out = execFileSync(
      process.execPath,
      ["--conditions=@x/source", "--import", "tsx", child, parkFile, join(dir, "ledger"), folder, KEY],
      { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" },
    );
    const resumed = JSON.parse(out) as { status: string; messages: Message[] };
    expect(resumed.status).toBe("completed");
    const [write] = toolResults(resumed.messages);
    expect(write).toMatchObject({ toolName: "fs__write_file", isError: false });
    expect(resultText(write!)).toContain("Successfully wrote");
    expect(readFileSync(target, "utf8")).toBe("step 1");
  }, 60_000);
});
