import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, ofType, parseEvents, runCli } from "./cli-helpers";

const url = process.env.PG_URL;
const owner = `cli-test-${process.pid}`;
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "x-agent-queue-"));
  // The scripted student drafts the note from the sandbox's README, as in the demo.
  await mkdir(join(cwd, ".x-agent", "sandbox"), { recursive: true });
  await writeFile(join(cwd, ".x-agent", "sandbox", "README.md"), "# Widget\n\n- Faster start-up\n- Fixed a crash\n");
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const notes = (events: ReturnType<typeof parseEvents>) =>
  events.flatMap((e) => (e.type === "note" ? [e.text] : [])).join("\n");

describe.runIf(url)("x-agent worker / enqueue / task on one PostgreSQL", () => {
  it("a queued write parks, is approved from another process, and a worker finishes it", async () => {
    const worker = spawn(process.execPath, [BIN, "worker", "--scripted", "--store", url!, "--json"], {
      cwd,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => worker.on("exit", resolve));
    // Ready once it printed its banner: a signal before then would meet a process still loading.
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on("data", (chunk: Buffer) => chunk.toString().includes('"banner"') && resolve());
      worker.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
    try {
      const queued = await runCli(
        [
          "enqueue",
          "Write a release note for version 1.2.0 to NOTES.md in the sandbox.",
          "--store",
          url!,
          "--owner",
          owner,
          "--wait",
          "--json",
        ],
        { cwd },
      );
      expect([queued.code, queued.stderr]).toEqual([0, ""]);
      const text = notes(parseEvents(queued.stdout));
      const taskId = /queued task ([0-9a-f-]{36})/.exec(text)?.[1];
      expect(taskId).toBeDefined();
      expect(text).toContain(`task ${taskId}: parked`);

      // The parked task shows the whole call it waits for, human and --json — the write's every line.
      const call = ofType(parseEvents(queued.stdout), "pending_call")[0]!;
      expect(call).toMatchObject({ type: "pending_call", tool: "write_file", path: [] });
      expect(call.arguments).toMatchObject({ path: "NOTES.md", content: expect.stringMatching(/1\.2\.0/) as string });
      // The hint names the queue and the owner: pasted as printed, it finds the task.
      expect(call.decide).toBe(`x-agent task ${taskId} --store ${url!} --owner ${owner} --approve   (or --deny)`);
      const shown = await runCli(["task", taskId!, "--store", url!, "--owner", owner], { cwd });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`write_file (call ${call.id})`);
      for (const line of String(call.arguments.content).trimEnd().split("\n"))
        expect(shown.stdout).toContain(`│ ${line}`);

      const other = await runCli(["task", taskId!, "--store", url!, "--owner", "someone-else", "--json"], { cwd });
      expect(other.code).toBe(1);
      expect(other.stdout).toContain('"code":"not_found"');

      const approved = await runCli(
        ["task", taskId!, "--store", url!, "--owner", owner, "--approve", "--wait", "--json"],
        { cwd },
      );
      expect(approved.code).toBe(0);
      const approvedEvents = parseEvents(approved.stdout);
      expect(ofType(approvedEvents, "pending_call")).toEqual([{ ...call, decision: "approve", decide: undefined }]);
      expect(notes(approvedEvents)).toContain(`task ${taskId}: completed`);
      expect(await readFile(join(cwd, ".x-agent", "sandbox", "NOTES.md"), "utf8")).toMatch(/1\.2\.0/);
    } finally {
      worker.kill("SIGTERM");
      await exited;
    }
  }, 180_000);

  it("Ctrl-C stops the worker as its banner says: it says it stops its tasks, then exits 0", async () => {
    // A process group of its own, which Ctrl-C signals whole, as a terminal does its foreground job.
    const worker = spawn(process.execPath, [BIN, "worker", "--scripted", "--store", url!, "--json"], {
      cwd,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    worker.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on("data", () => out.includes('"banner"') && resolve());
      worker.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
    try {
      process.kill(-worker.pid!, "SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (worker.exitCode === null) process.kill(-worker.pid!, "SIGKILL");
    }
    expect(notes(parseEvents(out))).toContain("stopping: the tasks in flight finish (or are handed to another worker)");
  }, 60_000);

  it("refuses a queue that is not PostgreSQL, with a usage error", async () => {
    const run = await runCli(["enqueue", "anything", "--store", "strategies.db"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("needs --store postgres://");
  });
});
