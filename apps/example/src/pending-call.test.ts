import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewPendingCall } from "./pending-call";

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-pending-")));
  await writeFile(join(root, "notes.md"), "a\nb\n");
});
afterAll(() => rm(root, { recursive: true, force: true }));

const write = (path: string, content: string) => ({
  toolCall: { id: "w1", name: "write_file", arguments: { path, content } },
  kind: "ask" as const,
});

describe("viewPendingCall", () => {
  it("keeps the call whole: tool, id, every argument, why, and the runs above it", async () => {
    const path = [{ runId: "r", toolName: "delegate", toolCallId: "d1" }];
    expect(
      await viewPendingCall({ ...write("x", "y"), kind: "denial_limit", reason: "blocked 3 times", path }),
    ).toEqual({
      tool: "write_file",
      id: "w1",
      arguments: { path: "x", content: "y" },
      kind: "denial_limit",
      reason: "blocked 3 times",
      path,
    });
  });

  it("diffs a write onto an existing file of the sandbox against it as it is now", async () => {
    expect((await viewPendingCall(write("notes.md", "a\nc\n"), root)).diff).toBe(
      ["--- a/notes.md", "+++ b/notes.md", "@@ -1,2 +1,2 @@", " a", "-b", "+c"].join("\n"),
    );
    expect((await viewPendingCall(write("./notes.md", "a\nb\n"), root)).diff).toBe(
      "notes.md already holds exactly this content",
    );
  });

  it("has no diff for a new file, a path the tool refuses, another tool, or no sandbox at hand", async () => {
    expect((await viewPendingCall(write("new.md", "x"), root)).diff).toBeUndefined();
    expect((await viewPendingCall(write("../etc/passwd", "x"), root)).diff).toBeUndefined();
    expect((await viewPendingCall(write("notes.md", "x"))).diff).toBeUndefined();
    const shell = { toolCall: { id: "s", name: "shell", arguments: { command: "ls" } }, kind: "ask" as const };
    expect((await viewPendingCall(shell, root)).diff).toBeUndefined();
  });
});
