import { readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeShellResult, runShell } from "./shell";

/** The process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("runShell", () => {
  it("runs in the sandbox folder and reports the exit code", async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-shell-")));
    const ok = await runShell("pwd && echo hi >&2", { cwd: root, timeoutMs: 5_000 });
    expect(ok.exitCode).toBe(0);
    expect(ok.output).toContain(root);
    expect(ok.output).toContain("hi");
    const bad = await runShell("exit 3", { cwd: root, timeoutMs: 5_000 });
    expect(describeShellResult(bad, 5_000)).toBe("exit code 3 (no output)");
    await rm(root, { recursive: true, force: true });
  });

  it("kills the whole process group at the timeout, the command's background children included", async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "x-agent-shell-")));
    const result = await runShell("sleep 30 & echo $! > bg.pid; sleep 30; echo never", { cwd: root, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.output).not.toContain("never");
    expect(describeShellResult(result, 300)).toMatch(/^timed out after 0.3s/);
    const pid = Number((await readFile(join(root, "bg.pid"), "utf8")).trim());
    expect(pid).toBeGreaterThan(0);
    // SIGKILL is delivered at once, but the zombie is reaped by init a moment later.
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    await rm(root, { recursive: true, force: true });
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    const pending = runShell("sleep 30", { cwd: tmpdir(), timeoutMs: 10_000, signal: controller.signal });
    controller.abort();
    expect((await pending).aborted).toBe(true);
  });

  it("passes the command no API key, park key or other secret from the CLI's environment", async () => {
    const secrets = {
      OPENAI_API_KEY: "sk-leak-openai",
      ANTHROPIC_API_KEY: "sk-leak-anthropic",
      X_AGENT_PARK_KEY: "leak-park",
      PG_URL: "postgres://u:leak-pw@h/db",
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    try {
      const result = await runShell("env", { cwd: tmpdir(), timeoutMs: 5_000 });
      expect(result.exitCode).toBe(0);
      expect(result.output).toMatch(/^PATH=/m);
      expect(result.output).not.toMatch(/leak/);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
