import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeConfinement, shellConfinement } from "./confinement";
import { runShell } from "./shell";

let base: string;
let root: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "x-agent-confine-")));
  root = join(base, "box");
  await mkdir(root);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe("shell confinement", () => {
  it("says plainly what the shell can touch, either way", () => {
    expect(describeConfinement({ kind: "none", why: "bubblewrap (bwrap) is not installed" })).toMatch(
      new RegExp(
        "^the shell is NOT confined — bubblewrap \\(bwrap\\) is not installed: a command runs as you, " +
          "anywhere on this machine, and auto mode's classifier is the only guard",
      ),
    );
    expect(describeConfinement({ kind: "bwrap", version: "0.8.0" })).toMatch(
      /^the shell is confined by bubblewrap 0\.8\.0: the sandbox is the only folder a command can write/,
    );
  });

  // CI installs bubblewrap (.ci/run); a machine without it (or without user namespaces) says so at start-up instead.
  it.runIf(shellConfinement(tmpdir()).kind === "bwrap")(
    "with bubblewrap, a command writes in the sandbox and nowhere else: touch ../x cannot escape",
    async () => {
      const confine = shellConfinement(root);
      expect(confine.kind).toBe("bwrap");
      const escape = await runShell("touch ../x; echo rc=$?; touch inside; touch /tmp/x-agent-escape; echo rc=$?", {
        cwd: root,
        timeoutMs: 10_000,
        confine,
      });
      expect(escape.output.match(/rc=\d/g)).toEqual(["rc=1", "rc=1"]);
      expect(escape.output).toMatch(/Read-only file system/);
      expect(existsSync(join(base, "x"))).toBe(false);
      expect(existsSync("/tmp/x-agent-escape")).toBe(false);
      expect(existsSync(join(root, "inside"))).toBe(true);
      // The same command unconfined does escape: the mechanism, not luck, held it.
      await runShell("touch ../x", { cwd: root, timeoutMs: 10_000 });
      expect(await readFile(join(base, "x"), "utf8")).toBe("");
    },
  );
});
