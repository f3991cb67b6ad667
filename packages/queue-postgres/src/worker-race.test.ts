import { describe, expect, it } from "vitest";
import { openQueue, recordingBrain, tools, workerOptions, type ToolHooks } from "../test/fixture";
import { PG_URL, until, useHarness } from "../test/harness";
import { createWorker, type TaskQueue, type Worker } from "./index";

const h = useHarness("race");

interface Racer {
  queue: TaskQueue;
  worker: Worker;
  calls: number[];
}

/** `n` workers, each with its own pool and pg-boss (as separate processes have). */
async function racers(n: number, hooks: ToolHooks = {}): Promise<Racer[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const queue = openQueue(PG_URL!, h.schema);
      await queue.start();
      const calls: number[] = [];
      const worker = createWorker(
        workerOptions(queue, tools(queue.pool, h.schema, hooks), { faux: recordingBrain(calls) }),
      );
      await worker.start();
      return { queue, worker, calls };
    }),
  );
}
async function stopAll(all: Racer[]) {
  for (const { worker, queue } of all) {
    await worker.stop();
    await queue.stop();
  }
}
/** Extra jobs for one task, so several workers are handed it at the same moment. */
const duplicateJobs = (taskId: string, n: number) => Promise.all(Array.from({ length: n }, () => h.queue.send(taskId)));

describe.runIf(PG_URL)("workers racing", () => {
  it("three workers handed the same task at once: exactly one runs it", async () => {
    const all = await racers(3);
    try {
      const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
      await duplicateJobs(id, 8);
      const done = await h.settled(id);
      expect([done.status, done.attempts]).toEqual(["completed", 1]);
      expect(await h.effects(id)).toEqual(["step 1", "step 2", "step 3", "step 4"]);
      // One worker asked the model all five turns; the others never did.
      expect(all.map((r) => r.calls.length).sort()).toEqual([0, 0, 5]);
    } finally {
      await stopAll(all);
    }
  });

  it("three workers handed the same approved park at once: the call runs once", async () => {
    const all = await racers(3);
    try {
      const id = await h.queue.enqueue({ objective: "deploy it", toolNames: ["deploy"] }, { owner: "acme" });
      expect((await h.settled(id)).status).toBe("parked");
      await h.queue.approve(id, "acme", { decision: "approve" });
      await duplicateJobs(id, 8);
      const done = await h.settled(id, "acme", ["completed", "failed", "unknown_outcome"]);
      expect([done.status, done.result?.output]).toEqual(["completed", "deployed"]);
      expect(await h.effects(id)).toEqual(["deploy prod"]);
      const ledger = await h.admin.query(`SELECT state FROM ${h.schema}.park_calls WHERE park_id = $1`, [
        await parkIdOf(id),
      ]);
      expect(ledger.rows).toEqual([{ state: "done" }]);
    } finally {
      await stopAll(all);
    }
  });

  it("a worker that lost its task lease mid-run writes nothing; another goes on from its last turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const [slow] = await racers(1, { after: (_name, n) => (n === 2 ? gate : Promise.resolve()) });
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    try {
      await until(async () => ((await h.effects(id)).includes("step 2") ? true : undefined));
      // Another worker took the task over (as after a stall longer than the lease).
      await h.admin.query(
        `UPDATE ${h.schema}.tasks SET lease_owner = 'thief', lease_until = now() + interval '1 hour' WHERE id = $1`,
        [id],
      );
      const before = await rowOf(id);
      const eventsBefore = await h.queue.events(id, "acme");
      release();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await rowOf(id)).toEqual(before);
      expect(slow!.calls).toEqual([0, 1]); // no third turn asked by the worker that lost the lease
      // Not even its step 2's tool_result: every write, events included, is fenced by the lease.
      expect(await h.queue.events(id, "acme")).toEqual(eventsBefore);
    } finally {
      await stopAll([slow!]);
    }
    // The thief dies: its lease lapses and the task's next job goes to a live worker.
    await h.admin.query(`UPDATE ${h.schema}.tasks SET lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const [next] = await racers(1);
    try {
      await h.queue.send(id);
      const done = await h.settled(id);
      expect(done.status).toBe("completed");
      // Turn 2 was accepted before its step ran: the step runs again, the model is not asked again.
      expect(next!.calls).toEqual([2, 3, 4]);
      expect(await h.effects(id)).toEqual(["step 1", "step 2", "step 2", "step 3", "step 4"]);
    } finally {
      await stopAll([next!]);
    }
  });
});

async function parkIdOf(taskId: string): Promise<string> {
  const found = await h.admin.query<{ park_id: string }>(`SELECT park_id FROM ${h.schema}.tasks WHERE id = $1`, [
    taskId,
  ]);
  return found.rows[0]!.park_id;
}

async function rowOf(taskId: string) {
  const found = await h.admin.query(
    `SELECT status, checkpoint::text, result::text, error, lease_owner,
        (SELECT json_agg(link ORDER BY seq)::text FROM ${h.schema}.task_turns WHERE task_id = $1) AS turns
       FROM ${h.schema}.tasks WHERE id = $1`,
    [taskId],
  );
  return found.rows[0];
}
