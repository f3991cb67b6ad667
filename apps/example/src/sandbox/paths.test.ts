import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveInside, SandboxError } from "./paths";

let root: string;
let outside: string;

beforeAll(async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), "x-agent-outside-")));
  root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-root-")));
  await mkdir(join(root, "docs"));
  await writeFile(join(root, "docs", "a.txt"), "a");
  await symlink(outside, join(root, "escape"));
  await symlink(join(root, "docs"), join(root, "docs-link"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function refusal(path: string): Promise<SandboxError> {
  const error = await resolveInside(root, path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SandboxError);
  return error as SandboxError;
}

describe("resolveInside", () => {
  it("resolves relative paths, the root itself, and files that do not exist yet", async () => {
    expect(await resolveInside(root, "docs/a.txt")).toBe(join(root, "docs", "a.txt"));
    expect(await resolveInside(root, ".")).toBe(root);
    expect(await resolveInside(root, "")).toBe(root);
    expect(await resolveInside(root, "new/deep/file.md")).toBe(join(root, "new", "deep", "file.md"));
    expect(await resolveInside(root, join(root, "docs"))).toBe(join(root, "docs"));
  });

  it("refuses .. segments and absolute paths outside", async () => {
    expect((await refusal("../x")).code).toBe("path_escape");
    expect((await refusal("docs/../../x")).code).toBe("path_escape");
    expect((await refusal("/etc/passwd")).code).toBe("path_escape");
  });

  it("refuses a symlink that leads out, and follows one that stays in", async () => {
    expect((await refusal("escape")).code).toBe("path_escape");
    expect((await refusal("escape/new-file.txt")).code).toBe("path_escape");
    expect(await resolveInside(root, "docs-link/a.txt")).toBe(join(root, "docs", "a.txt"));
  });

  it("refuses a NUL byte", async () => {
    expect((await refusal("a\u0000b")).code).toBe("bad_path");
  });
});
