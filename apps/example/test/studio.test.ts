import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../src/args";
import { helpText } from "../src/commands/help";
import { openStudio } from "../src/commands/studio";
import type { CliIo } from "../src/io";
import { BIN, cleanEnv, ofType, parseEvents, removeTempDirs, runCli, tempDir } from "./cli-helpers";

afterAll(removeTempDirs);

function ioFor(cwd: string): CliIo {
  return {
    cwd,
    env: cleanEnv(),
    emit: () => undefined,
    interactive: false,
    input: process.stdin,
    inputIsTTY: false,
  };
}

/** Reads a server-sent event stream to its end (`[DONE]`), as the studio's live page does. */
async function readEvents(response: Response): Promise<{ type: string; data?: { status?: string } }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .map((block) => block.replace(/^data: ?/m, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as { type: string });
}

describe("x-agent studio", () => {
  it("parses its flags and refuses bad ones", () => {
    expect(parseCommandLine(["studio"])).toMatchObject({ name: "studio", host: "127.0.0.1", port: 0, parked: [] });
    expect(parseCommandLine(["studio", "--port", "4400", "--parked", "a", "--parked", "b"])).toMatchObject({
      port: 4400,
      parked: ["a", "b"],
    });
    expect(() => parseCommandLine(["studio", "--port", "x"])).toThrow(UsageError);
    expect(() => parseCommandLine(["studio", "--queue", "mysql://x"])).toThrow(/postgres/);
    const help = parseCommandLine(["studio", "--help"]);
    expect(help).toEqual({ name: "help", topic: "studio", json: false });
    expect(helpText(help as Extract<typeof help, { name: "help" }>)).toContain("--parked <dir>");
  });

  it(
    "a demo's parked write is in the inbox with its arguments; approved in the studio it runs once, " +
      "and x-agent resume then finds it decided",
    async () => {
      const cwd = await tempDir("x-agent-studio-");
      const parkedRun = await runCli(["demo", "approval", "--park-only", "--json"], { cwd });
      expect(parkedRun.code).toBe(0);
      const parked = ofType(parseEvents(parkedRun.stdout), "parked")[0]!;

      const open = await openStudio(
        {
          name: "studio",
          json: false,
          host: "127.0.0.1",
          port: 0,
          parked: [dirname(parked.file)],
          scopes: [],
          owner: "x",
        },
        ioFor(cwd),
      );
      try {
        const auth = { authorization: `Bearer ${open.studio.token}` };
        expect((await fetch(`${open.studio.origin}/inbox`)).status).toBe(401);
        const inbox = await (await fetch(`${open.studio.origin}/inbox`, { headers: auth })).text();
        expect(inbox).toContain("write_file");
        expect(inbox).toContain("NOTES.md");
        expect(inbox).toContain("Adds a /health endpoint");
        const parkId = /data-park="([^"]+)"/.exec(inbox)![1]!;
        const formKey = /name="formKey" value="([0-9a-f]+)"/.exec(inbox)![1]!;

        const decide = () =>
          fetch(`${open.studio.origin}/inbox/${parkId}/decide`, {
            method: "POST",
            headers: auth,
            body: new URLSearchParams({ formKey, decision: "approve" }),
            redirect: "manual",
          });
        const approved = await decide();
        expect(approved.status).toBe(303);
        const live = approved.headers.get("location")!;
        const events = await readEvents(
          await fetch(`${open.studio.origin}${live.replace(/\/live$/, "/events")}`, { headers: auth }),
        );
        expect(events.find((e) => e.type === "data-x-result")?.data?.status).toBe("completed");
        expect(events.some((e) => e.type === "tool-output-available")).toBe(true);

        const sandboxNote = parseEvents(parkedRun.stdout).find(
          (e) => e.type === "note" && e.text.startsWith("sandbox: "),
        );
        const sandbox = sandboxNote?.type === "note" ? sandboxNote.text.slice("sandbox: ".length) : "";
        expect(await readFile(join(sandbox, "NOTES.md"), "utf8")).toContain("Adds a /health endpoint");
        expect(await readdir(join(cwd, ".x-agent", "park-ledger"))).toEqual([`${parkId}.claimed`]);

        // Decided: gone from the inbox, a second decision is refused, and so is the CLI's.
        expect(await (await fetch(`${open.studio.origin}/inbox`, { headers: auth })).text()).toContain(
          "Nothing waits for a decision",
        );
        expect((await decide()).status).toBe(409);
      } finally {
        await open.close();
      }
      const replay = await runCli(["resume", parked.file, "--approve", "--json"], { cwd });
      expect(replay.code).toBe(1);
      expect(ofType(parseEvents(replay.stdout), "error")[0]!.code).toBe("replayed");
    },
    180_000,
  );
});

describe.runIf(process.env.PG_URL)("x-agent studio on the queue's PostgreSQL", () => {
  it("a queued task's parked write is in the inbox; approved there, a worker finishes it (runs list)", async () => {
    const url = process.env.PG_URL!;
    const owner = `studio-test-${process.pid}`;
    const cwd = await tempDir("x-agent-studio-queue-");
    await mkdir(join(cwd, ".x-agent", "sandbox"), { recursive: true });
    await writeFile(join(cwd, ".x-agent", "sandbox", "README.md"), "# Widget\n\n- Faster start-up\n");
    const worker = spawn(process.execPath, [BIN, "worker", "--scripted", "--store", url, "--json"], {
      cwd,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => worker.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on("data", (chunk: Buffer) => chunk.toString().includes('"banner"') && resolve());
      worker.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
    try {
      const objective = "Write a release note for version 1.2.0 to NOTES.md in the sandbox.";
      const queued = await runCli(["enqueue", objective, "--store", url, "--owner", owner, "--wait", "--json"], {
        cwd,
      });
      expect(queued.code).toBe(0);
      const taskId = /queued task ([0-9a-f-]{36})/.exec(queued.stdout)![1]!;

      const open = await openStudio(
        { name: "studio", json: false, host: "127.0.0.1", port: 0, parked: [], scopes: [], owner, queue: url },
        ioFor(cwd),
      );
      try {
        const auth = { authorization: `Bearer ${open.studio.token}` };
        const inbox = await (await fetch(`${open.studio.origin}/inbox`, { headers: auth })).text();
        expect(inbox).toContain(`queue task ${taskId}`);
        expect(inbox).toContain("NOTES.md");
        const parkId = /data-park="([^"]+)"/.exec(inbox)![1]!;
        const formKey = /name="formKey" value="([0-9a-f]+)"/.exec(inbox)![1]!;
        const approved = await fetch(`${open.studio.origin}/inbox/${parkId}/decide`, {
          method: "POST",
          headers: auth,
          body: new URLSearchParams({ formKey, decision: "approve" }),
          redirect: "manual",
        });
        expect(approved.headers.get("location")).toBe(`/runs/${taskId}/live`);

        const done = await runCli(["task", taskId, "--store", url, "--owner", owner, "--wait", "--json"], { cwd });
        expect(done.stdout).toContain(`task ${taskId}: completed`);
        const runs = await (await fetch(`${open.studio.origin}/runs`, { headers: auth })).text();
        const row = runs.split("<tr").find((r) => r.includes(taskId)) ?? "";
        expect(row).toContain("completed");
        expect(row).toContain("queue");
        expect(await readFile(join(cwd, ".x-agent", "sandbox", "NOTES.md"), "utf8")).toMatch(/1\.2\.0/);
      } finally {
        await open.close();
      }
    } finally {
      worker.kill("SIGTERM");
      await exited;
    }
  }, 240_000);
});
