import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFiles, MAX_READ_BYTES, readTextFile, writeTextFile } from "./files";

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-files-")));
  await mkdir(join(root, "config"));
  await writeFile(join(root, "config", "settings.json"), '{"port":8080}');
  await writeFile(join(root, "README.md"), "hello");
  await mkdir(join(root, "node_modules"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("sandbox files", () => {
  it("lists recursively with sizes, skipping node_modules", async () => {
    expect(await listFiles(root, ".", 3)).toBe("README.md  5 B\nconfig/\nconfig/settings.json  13 B");
    expect(await listFiles(root, ".", 1)).toBe("README.md  5 B\nconfig/");
  });

  it("reads, and cuts a large file", async () => {
    expect(await readTextFile(root, "config/settings.json")).toBe('{"port":8080}');
    await writeFile(join(root, "big.txt"), "x".repeat(MAX_READ_BYTES + 10));
    expect(await readTextFile(root, "big.txt")).toContain(`cut at ${MAX_READ_BYTES}`);
  });

  it("reports a missing file and a folder read as a file with stable codes", async () => {
    await expect(readTextFile(root, "settings.json")).rejects.toMatchObject({ code: "not_found" });
    await expect(readTextFile(root, "config")).rejects.toMatchObject({ code: "not_a_file" });
    await expect(listFiles(root, "README.md", 1)).rejects.toMatchObject({ code: "not_a_directory" });
  });

  it("writes, making folders, and refuses to write outside", async () => {
    expect(await writeTextFile(root, "notes/NOTES.md", "# Notes\n")).toBe("wrote 8 bytes to notes/NOTES.md");
    expect(await readFile(join(root, "notes", "NOTES.md"), "utf8")).toBe("# Notes\n");
    await expect(writeTextFile(root, "../evil.txt", "x")).rejects.toMatchObject({ code: "path_escape" });
    await expect(writeTextFile(root, ".", "x")).rejects.toMatchObject({ code: "not_a_file" });
  });
});
