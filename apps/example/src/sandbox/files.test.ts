import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
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

  describe("adversarial paths: every tool refuses to reach outside, and nothing outside changes", () => {
    let outside: string;
    beforeEach(async () => {
      outside = await realpath(await mkdtemp(join(tmpdir(), "x-agent-outside-")));
      await writeFile(join(outside, "secret.txt"), "top secret");
      await symlink(outside, join(root, "out-dir"));
      await symlink(join(outside, "secret.txt"), join(root, "secret-link.txt"));
      await symlink(join(outside, "planted.txt"), join(root, "dangling.txt"));
      await symlink(join(outside, "nowhere"), join(root, "dangling-dir"));
    });
    afterEach(async () => {
      await rm(outside, { recursive: true, force: true });
    });

    const escapes = [
      "../secret.txt",
      "config/../../secret.txt",
      "/etc/passwd",
      "out-dir/secret.txt",
      "out-dir/new.txt",
      "out-dir/deep/new.txt",
      "secret-link.txt",
      "dangling.txt",
      "dangling-dir/new.txt",
      "config/\u0000../../x",
    ];

    it.each(escapes)("refuses %j for read, write and list", async (path) => {
      const code = path.includes("\u0000") ? "bad_path" : "path_escape";
      await expect(readTextFile(root, path)).rejects.toMatchObject({ code });
      await expect(writeTextFile(root, path, "pwned")).rejects.toMatchObject({ code });
      await expect(listFiles(root, path, 1)).rejects.toMatchObject({ code });
      expect((await readdir(outside)).sort()).toEqual(["secret.txt"]);
      expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("top secret");
      expect(existsSync("/etc/passwd") && (await readFile("/etc/passwd", "utf8")).includes("pwned")).toBe(false);
    });

    it("does not follow links out when listing the sandbox", async () => {
      const listing = await listFiles(root, ".", 5);
      expect(listing).toContain("out-dir");
      expect(listing).not.toContain("secret.txt");
    });
  });
});
