import { fauxText, fauxToolCall } from "@x/brain-faux";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp, type McpToolset } from "./index";
import { autoRunner, resultText, toolResults } from "../test/harness";
import { everythingServer } from "../test/servers";

let toolset: McpToolset | undefined;
afterEach(async () => {
  await toolset?.close();
  toolset = undefined;
});

describe("roots, on the real server-everything over stdio", () => {
  it("a server is told the folders the host named, and only when it named some", async () => {
    const roots = [{ uri: "file:///srv/project", name: "project" }];
    toolset = await connectMcp([everythingServer({ roots, policy: { default: "allow" } })]);
    expect(toolset.tools().map((tool) => tool.name)).toContain("everything__get-roots-list");
    const { runner } = autoRunner([fauxToolCall("everything__get-roots-list", {}), fauxText("done")]);
    const result = await runner.runTask({ objective: "roots?", tools: toolset.tools() });
    expect(resultText(toolResults(result.messages)[0]!)).toContain("URI: file:///srv/project");
    await toolset.close();
    toolset = await connectMcp([everythingServer()]);
    expect(toolset.tools().map((tool) => tool.name)).not.toContain("everything__get-roots-list");
  });
});
