import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresParkLedger, createWorker, QueueError, type TaskQueue } from "./index";
import { createEffectsTable, LEASE_MS, openQueue, recordingBrain, STEPS, tools, workerOptions } from "../test/fixture";

const url = process.env.PG_URL;
const here = dirname(fileURLToPath(import.meta.url));
const schema = `x_queue_test_${process.pid}`;
let admin: pg.Pool;
let queue: TaskQueue;

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: url, max: 4 });
  queue = openQueue(url!, schema);
  await queue.start();
  await createEffectsTable(admin, schema);
});
afterAll(async () => {
  await queue?.stop();
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  await admin?.end();
});

const effects = async (like: string) =>
  (
    await admin.query<{ name: string; idempotency_key: string }>(
      `SELECT name, idempotency_key FROM ${schema}.effects WHERE idempotency_key LIKE $1 ORDER BY at`,
      [like],
    )
  ).rows;

async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const settled = (
  taskId: string,
  owner = "acme",
  states = ["completed", "failed", "parked", "dead_letter", "unknown_outcome"],
) =>
  until(async () => {
    const task = await queue.getTask(taskId, owner);
    return states.includes(task.status) ? task : undefined;
  });

function childWorker(hangAt: string): { child: ChildProcess; hanging: Promise<void> } {
  const child = spawn(
    process.execPath,
    ["--conditions=@x/source", "--import", "tsx", join(here, "../test/worker-child.ts"), url!, schema, hangAt],
    {
      cwd: join(here, ".."),
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const hanging = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("hanging") && resolve());
    child.on("exit", (code) => reject(new Error(`child exited (${code}) before it hung`)));
  });
  return { child, hanging };
}

describe.runIf(url)("PostgreSQL park ledger", () => {
  const ledger = (owner: string, leaseMs = 5_000) => createPostgresParkLedger({ db: admin, schema, owner, leaseMs });

  it("claimed → executing → done; a later claim gets the recorded result", async () => {
    const a = ledger("a");
    expect(await a.claim("park-1")).toEqual({ status: "granted" });
    expect(await ledger("b").claim("park-1")).toEqual({ status: "refused", reason: "in_progress" });
    await a.executing!("park-1");
    expect(await ledger("b").claim("park-1")).toEqual({ status: "refused", reason: "in_progress" });
    const result = {
      role: "toolResult" as const,
      toolCallId: "c",
      toolName: "t",
      content: [],
      isError: false,
      timestamp: 1,
    };
    await a.executed!("park-1", result);
    expect(await ledger("b").claim("park-1")).toEqual({ status: "recorded", result });
    a.close();
  });

  it("a claim whose lease lapsed before the call started is granted again", async () => {
    await ledger("a", 50).claim("park-2");
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await ledger("b").claim("park-2")).toEqual({ status: "granted" });
  });

  it("an execution whose lease lapsed is an unknown outcome, for every later claim, and never granted", async () => {
    const a = ledger("a", 60);
    await a.claim("park-3");
    await a.executing!("park-3");
    a.close(); // the process "dies": nothing renews the lease
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await ledger("b").claim("park-3")).toEqual({ status: "refused", reason: "unknown_outcome" });
    expect(await ledger("c").claim("park-3")).toEqual({ status: "refused", reason: "unknown_outcome" });
    const row = await admin.query(`SELECT state FROM ${schema}.park_calls WHERE park_id = 'park-3'`);
    expect(row.rows[0].state).toBe("unknown_outcome");
  });

  it("a live execution keeps its lease renewed, so a slow call is not mistaken for a dead one", async () => {
    const a = ledger("a", 90);
    await a.claim("park-4");
    await a.executing!("park-4");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await ledger("b").claim("park-4")).toEqual({ status: "refused", reason: "in_progress" });
    a.close();
  });

  it("of sixteen processes racing for one park, exactly one is granted", async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => ledger(`w${i}`).claim("park-5")));
    expect(answers.filter((a) => typeof a === "object" && a.status === "granted")).toHaveLength(1);
  });
});

describe.runIf(url)("task queue", () => {
  it("runs enqueued tasks to completion with the normal runner, events readable by the owner only", async () => {
    const worker = createWorker(workerOptions(queue, tools(queue.pool, schema)));
    await worker.start();
    const ids = await Promise.all(
      [1, 2, 3].map((i) => queue.enqueue({ objective: `task ${i}`, toolNames: ["step"] }, { owner: "acme" })),
    );
    for (const id of ids) {
      const task = await settled(id);
      expect([task.status, task.error]).toEqual(["completed", null]);
      expect(task.result?.output).toBe(`done after ${STEPS} steps`);
      expect(task.result?.stats.turns).toBe(STEPS + 1);
      expect(task.attempts).toBe(1);
    }
    const events = await queue.events(ids[0]!, "acme");
    expect(events.filter((e) => e.event.type === "turn").map((e) => e.event.turns)).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)!.event).toMatchObject({ type: "end", status: "completed" });
    await expect(queue.getTask(ids[0]!, "globex")).rejects.toMatchObject({ code: "not_found" });
    await expect(queue.events(ids[0]!, "globex")).rejects.toBeInstanceOf(QueueError);
    await expect(queue.approve(ids[0]!, "globex", { decision: "approve" })).rejects.toMatchObject({
      code: "not_found",
    });
    await worker.stop();
  });

  it("refuses a malformed spec before anything is stored", async () => {
    await expect(queue.enqueue({ objective: 3 } as never, { owner: "acme" })).rejects.toMatchObject({
      code: "invalid_spec",
    });
  });

  it("a parked task waits; two racing approvals: one wins, the call runs once, any worker resumes it", async () => {
    const worker = createWorker(workerOptions(queue, tools(queue.pool, schema)));
    await worker.start();
    const id = await queue.enqueue({ objective: "deploy it", toolNames: ["deploy"] }, { owner: "acme" });
    const parked = await settled(id);
    expect(parked.status).toBe("parked");
    const other = openQueue(url!, schema); // another process's view of the same queue
    await other.start();
    const answers = await Promise.allSettled([
      queue.approve(id, "acme", { decision: "approve" }),
      other.approve(id, "acme", { decision: "approve" }),
    ]);
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    expect(answers.find((a) => a.status === "rejected")).toMatchObject({ reason: { code: "not_parked" } });
    const done = await settled(id, "acme", ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.result?.output).toBe("deployed");
    expect(await effects(`${id}:%`)).toEqual([{ name: "deploy prod", idempotency_key: `${id}:deploy-1` }]);
    await other.stop();
    await worker.stop();
  });

  it("a worker SIGKILLed mid-run: the task is retried from its last finished turn", async () => {
    const { child, hanging } = childWorker("step 3");
    const id = await queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await hanging;
    child.kill("SIGKILL");
    const calls: number[] = [];
    const worker = createWorker(workerOptions(queue, tools(queue.pool, schema), recordingBrain(calls)));
    await worker.start();
    const done = await settled(id);
    expect(done.status).toBe("completed");
    expect(done.attempts).toBe(1); // takes since the last progress: the retry, which finished
    // Only the turn in flight (the third: its step ran, its result was lost) is asked again.
    expect(calls).toEqual([2, 3, 4]);
    expect((await effects(`${id}:%`)).map((e) => e.name)).toEqual(["step 1", "step 2", "step 3", "step 3", "step 4"]);
    await worker.stop();
  }, 30_000);

  it("a worker SIGKILLed while executing an approved call: unknown outcome, never a second execution", async () => {
    const id = await queue.enqueue({ objective: "deploy now", toolNames: ["deploy"] }, { owner: "acme" });
    const { child, hanging } = childWorker("deploy 0");
    expect((await settled(id)).status).toBe("parked");
    await queue.approve(id, "acme", { decision: "approve" });
    await hanging;
    child.kill("SIGKILL");
    const worker = createWorker(workerOptions(queue, tools(queue.pool, schema)));
    await worker.start();
    const stuck = await settled(id, "acme", ["unknown_outcome", "completed", "failed"]);
    expect(stuck.status).toBe("unknown_outcome");
    expect(stuck.error).toMatch(/unknown/);
    expect(await effects(`${id}:%`)).toHaveLength(1);
    // A person checks the target and says the deploy happened: the run goes on without running it.
    await queue.reconcile(id, "acme", { happened: true, result: "deployed prod (checked by hand)" });
    const done = await settled(id, "acme", ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(await effects(`${id}:%`)).toHaveLength(1);
    await worker.stop();
  }, 30_000);

  it("a task that keeps losing its worker ends dead_letter, visible, after maxAttempts", async () => {
    const id = await queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    for (let i = 0; i < 3; i++) {
      const { child, hanging } = childWorker("step 1");
      await hanging;
      child.kill("SIGKILL");
      // Wait until the lease lapsed, so the next child takes the retry rather than finding it held.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    }
    const worker = createWorker(workerOptions(queue, tools(queue.pool, schema)));
    await worker.start();
    const dead = await settled(id, "acme", ["dead_letter", "completed"]);
    expect(dead.status).toBe("dead_letter");
    expect(dead.error).toMatch(/taken 3 times without progress/);
    await worker.stop();
  }, 60_000);
});
