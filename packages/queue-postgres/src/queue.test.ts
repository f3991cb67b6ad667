import { describe, expect, it } from "vitest";
import { createFauxBrain } from "@x/brain-faux";
import { openQueue, recordingBrain, scripted, STEPS, tools, workerOptions } from "../test/fixture";
import { PG_URL, until, useHarness } from "../test/harness";
import { createWorker, type TaskToolsRequest, type Worker } from "./index";

const h = useHarness("queue");

/** A worker on the harness's queue, stopped at the end of the test that made it. */
async function withWorker<T>(body: (worker: Worker, calls: number[]) => Promise<T>, toolList = tools): Promise<T> {
  const calls: number[] = [];
  const worker = createWorker(
    workerOptions(h.queue, toolList(h.queue.pool, h.schema), { faux: recordingBrain(calls) }),
  );
  await worker.start();
  try {
    return await body(worker, calls);
  } finally {
    await worker.stop();
  }
}

describe.runIf(PG_URL)("task queue", () => {
  it("queued → running → completed with the normal runner; a turn event after every turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = (db: typeof h.queue.pool, schema: string) =>
      tools(db, schema, { after: (name, n) => (n === 2 ? gate : Promise.resolve()) });
    await withWorker(async () => {
      const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
      expect((await h.queue.getTask(id, "acme")).status).toMatch(/^(queued|running)$/);
      await until(async () => ((await h.effects(id)).includes("step 2") ? true : undefined));
      expect((await h.queue.getTask(id, "acme")).status).toBe("running");
      release();
      const task = await h.settled(id);
      expect([task.status, task.error, task.attempts]).toEqual(["completed", null, 1]);
      expect(task.result?.output).toBe(`done after ${STEPS} steps`);
      expect(task.result?.stats.turns).toBe(STEPS + 1);
      const events = await h.queue.events(id, "acme");
      expect(events.filter((e) => e.event.type === "turn").map((e) => e.event.turns)).toEqual([1, 2, 3, 4]);
      expect(events.at(-1)!.event).toMatchObject({ type: "end", status: "completed" });
      expect(await h.queue.events(id, "acme", events.at(-2)!.seq)).toHaveLength(1);
    }, held);
  });

  it("refuses a malformed spec before anything is stored", async () => {
    const before = await h.admin.query(`SELECT count(*)::int AS n FROM ${h.schema}.tasks`);
    await expect(h.queue.enqueue({ objective: 3 } as never, { owner: "acme" })).rejects.toMatchObject({
      code: "invalid_spec",
    });
    // A provenance that does not cover the objective: no worker could start it, so it is not stored.
    const uncovered = { objective: "a strategy, then the task", objectiveProvenance: [{ source: "user", chars: 3 }] };
    await expect(h.queue.enqueue({ ...uncovered, toolNames: [] } as never, { owner: "acme" })).rejects.toMatchObject({
      code: "invalid_spec",
    });
    expect((await h.admin.query(`SELECT count(*)::int AS n FROM ${h.schema}.tasks`)).rows).toEqual(before.rows);
  });

  it("running → failed: a run that ends short (its turn limit) is failed with its reason, not retried", async () => {
    await withWorker(async () => {
      const id = await h.queue.enqueue(
        { objective: "four steps", toolNames: ["step"], maxTurns: 2 },
        { owner: "acme" },
      );
      const task = await h.settled(id);
      expect(task.status).toBe("failed");
      expect(task.error).toMatch(/turn/i);
      expect(task.result?.status).not.toBe("completed");
      expect(task.attempts).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // past the job's expiry: nothing takes it again
      expect(await h.effects(id)).toEqual(["step 1", "step 2"]);
      expect((await h.queue.getTask(id, "acme")).attempts).toBe(1);
    });
  });

  it("running → parked → resuming → completed; two racing approvals: one wins, the call runs once", async () => {
    await withWorker(async () => {
      const id = await h.queue.enqueue({ objective: "deploy it", toolNames: ["deploy"] }, { owner: "acme" });
      const parked = await h.settled(id);
      expect(parked.status).toBe("parked");
      expect(parked.result?.parked?.pending.toolName).toBe("deploy");
      expect(await h.effects(id)).toEqual([]);
      // A decision made on another park than the one the task waits on is refused, and changes nothing.
      await expect(
        h.queue.approve(id, "acme", { decision: "approve" }, { parkId: "a-park-nobody-was-shown" }),
      ).rejects.toMatchObject({ code: "park_changed" });
      expect((await h.queue.getTask(id, "acme")).status).toBe("parked");
      const shown = { parkId: parked.result!.parked!.parkId };
      const other = openQueue(PG_URL!, h.schema); // another process's view of the same queue
      await other.start();
      const answers = await Promise.allSettled([
        h.queue.approve(id, "acme", { decision: "approve" }, shown),
        other.approve(id, "acme", { decision: "approve" }, shown),
      ]);
      await other.stop();
      expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
      expect(answers.find((a) => a.status === "rejected")).toMatchObject({ reason: { code: "not_parked" } });
      const done = await h.settled(id, "acme", ["completed", "failed"]);
      expect([done.status, done.result?.output]).toEqual(["completed", "deployed"]);
      expect(await h.effects(id)).toEqual(["deploy prod"]);
      await expect(h.queue.approve(id, "acme", { decision: "approve" })).rejects.toMatchObject({ code: "not_parked" });
    });
  });

  it("parked → resuming → completed on a denial: the call never runs, the model is told", async () => {
    await withWorker(async () => {
      const id = await h.queue.enqueue({ objective: "deploy it", toolNames: ["deploy"] }, { owner: "acme" });
      expect((await h.settled(id)).status).toBe("parked");
      await h.queue.approve(id, "acme", { decision: "deny", reason: "not on a Friday" });
      const done = await h.settled(id, "acme", ["completed", "failed"]);
      expect(done.status).toBe("completed");
      const denial = done.result?.messages.find((m) => m.role === "toolResult");
      expect(denial).toMatchObject({ isError: true });
      expect(JSON.stringify(denial)).toContain("not on a Friday");
      expect(await h.effects(id)).toEqual([]);
    });
  });

  it("resuming → failed: a worker without the parked call's tool refuses the park, and runs nothing", async () => {
    const id = await withWorker(async () => {
      const parkedId = await h.queue.enqueue({ objective: "deploy it", toolNames: ["deploy"] }, { owner: "acme" });
      expect((await h.settled(parkedId)).status).toBe("parked");
      return parkedId;
    });
    const stepsOnly = (db: typeof h.queue.pool, schema: string) => tools(db, schema).filter((t) => t.name === "step");
    await withWorker(async () => {
      await h.queue.approve(id, "acme", { decision: "approve" });
      const failed = await h.settled(id, "acme", ["completed", "failed"]);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(/granted "deploy", which the tools given here lack/);
      expect(await h.effects(id)).toEqual([]);
    }, stepsOnly);
  });

  it("→ dead_letter when pg-boss gives up on a task's job: visible, with its reason", async () => {
    // A task whose job failed every retry lands on the dead-letter queue (its worker crashed before
    // reaching the row each time); sent there directly, as pg-boss would, while a lease keeps the
    // task's own job from running it first.
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await h.admin.query(`UPDATE ${h.schema}.tasks SET lease_until = now() + interval '1 hour' WHERE id = $1`, [id]);
    await h.queue.boss.send(h.queue.deadJobName, { taskId: id });
    await withWorker(async () => {
      const dead = await h.settled(id, "acme", ["dead_letter"]);
      expect(dead.error).toBe("its job failed every retry");
      expect(await h.effects(id)).toEqual([]);
    });
  });
});

describe.runIf(PG_URL)("a queued task is offered exactly the tools it names", () => {
  it("a registered tool the task did not name is not offered; a call to it is forbidden, runs nothing", async () => {
    const offered: string[][] = [];
    const asked: TaskToolsRequest[] = [];
    const brain = createFauxBrain((request) => {
      offered.push((request.context.tools ?? []).map((tool) => tool.name));
      return scripted(request);
    });
    const worker = createWorker(
      workerOptions(
        h.queue,
        (task) => {
          asked.push(task);
          return tools(h.queue.pool, h.schema);
        },
        { faux: brain },
      ),
    );
    await worker.start();
    try {
      // The script calls `deploy` for a "deploy" objective: the worker registers it, the task names only `step`.
      const id = await h.queue.enqueue({ objective: "deploy it", toolNames: ["step"] }, { owner: "acme" });
      const task = await h.settled(id);
      expect(task.status).toBe("completed");
      expect(offered).toEqual([["step"], ["step"]]);
      const results = task.result!.messages.filter((m) => m.role === "toolResult");
      expect(results).toMatchObject([{ toolName: "deploy", isError: true, details: { error: "forbidden" } }]);
      expect(await h.effects(id)).toEqual([]);
      expect(asked).toEqual([{ taskId: id, owner: "acme", scope: null, toolNames: ["step"] }]);

      // A name the worker does not register fails the task, typed, before any model call.
      const calls = offered.length;
      const ghost = await h.queue.enqueue({ objective: "four steps", toolNames: ["step", "ghost"] }, { owner: "acme" });
      const failed = await h.settled(ghost);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(/^tool_unavailable: .*"ghost"/);
      expect(offered).toHaveLength(calls);
      expect(await h.effects(ghost)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
