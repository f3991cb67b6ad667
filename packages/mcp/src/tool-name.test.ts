import { describe, expect, it } from "vitest";
import { mcpServerOf, mcpToolName } from "./tool-name";

describe("mcpToolName", () => {
  it("prefixes the server's name; the server is read back from the first separator", () => {
    expect(mcpToolName("fs", "read_file")).toBe("fs__read_file");
    expect(mcpServerOf("fs__read__file")).toBe("fs");
    expect(mcpServerOf("shell")).toBeUndefined();
  });

  it("a name providers refuse is rewritten with a hash, so two such names stay apart", () => {
    const dotted = mcpToolName("git", "repo.status");
    const slashed = mcpToolName("git", "repo/status");
    expect(dotted).toMatch(/^git__repo_status_[0-9a-f]{8}$/);
    expect(slashed).not.toBe(dotted);
    expect(slashed).not.toBe(mcpToolName("git", "repo_status"));
  });

  it("a long name is cut to 64 characters, hash kept", () => {
    const name = mcpToolName("server-with-long-name", "x".repeat(80));
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).toMatch(/^server-with-long-name__x+_[0-9a-f]{8}$/);
  });
});
