import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "./args";
import { mcpServers, splitCommand } from "./mcp";

describe("--mcp / --mcp-url", () => {
  it("splits a command line on spaces, keeping quoted words whole", () => {
    expect(splitCommand(`npx -y @modelcontextprotocol/server-filesystem@2026.8.31 "/my docs" ''`)).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-filesystem@2026.8.31",
      "/my docs",
      "",
    ]);
    expect(() => splitCommand('node "server.js')).toThrow(UsageError);
    expect(() => splitCommand("   ")).toThrow(UsageError);
  });

  it("names the servers mcp, mcp2, … in order: stdio commands first, then URLs", () => {
    expect(mcpServers(["node a.js --root ."], ["http://127.0.0.1:3000/mcp"])).toEqual([
      { name: "mcp", transport: { type: "stdio", command: "node", args: ["a.js", "--root", "."] } },
      { name: "mcp2", transport: { type: "http", url: "http://127.0.0.1:3000/mcp" } },
    ]);
    expect(() => mcpServers([], ["ftp://x"])).toThrow(UsageError);
  });

  it("run takes both flags, repeatedly", () => {
    const command = parseCommandLine([
      "run",
      "do it",
      "--mcp",
      "node a.js",
      "--mcp",
      "node b.js",
      "--mcp-url",
      "http://h/mcp",
    ]);
    expect(command).toMatchObject({ name: "run", mcp: ["node a.js", "node b.js"], mcpUrls: ["http://h/mcp"] });
  });
});
