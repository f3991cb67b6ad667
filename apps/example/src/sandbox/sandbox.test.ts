import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSandbox, reopenSandbox, SandboxOpenError } from "./sandbox";

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "x-agent-open-")));
  await writeFile(join(base, "a-file"), "x");
});
afterAll(() => rm(base, { recursive: true, force: true }));

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => (error instanceof SandboxOpenError ? error.code : error),
  );

describe("openSandbox", () => {
  it("refuses a named folder that does not exist, and makes nothing", async () => {
    expect(await refusal(openSandbox(join(base, "typo"), { create: false }))).toBe("sandbox_missing");
    expect(await refusal(openSandbox(join(base, "typo"), { create: false }))).toBe("sandbox_missing");
  });

  it("makes a missing folder only when asked to", async () => {
    expect(await openSandbox(join(base, "new", "box"), { create: true })).toBe(join(base, "new", "box"));
  });

  it("refuses a file, and a path through a file, with or without create — never a raw EEXIST", async () => {
    for (const create of [false, true]) {
      expect(await refusal(openSandbox(join(base, "a-file"), { create }))).toBe("sandbox_not_a_folder");
      expect(await refusal(openSandbox(join(base, "a-file", "box"), { create }))).toBe("sandbox_not_a_folder");
    }
  });

  it("gives a fresh temp folder when none is named", async () => {
    const made = await openSandbox(undefined, { create: false, prefix: "x-agent-open-test-" });
    expect(made).toContain("x-agent-open-test-");
    await rm(made, { recursive: true });
  });
});

describe("reopenSandbox (a parked run's folder)", () => {
  it("refuses a folder that is gone, or now leads elsewhere through a link", async () => {
    expect(await refusal(reopenSandbox(join(base, "gone")))).toBe("sandbox_missing");
    await mkdir(join(base, "real"));
    await symlink(join(base, "real"), join(base, "link"));
    expect(await refusal(reopenSandbox(join(base, "link")))).toBe("sandbox_moved");
    expect(await reopenSandbox(join(base, "real"))).toBe(join(base, "real"));
  });
});
