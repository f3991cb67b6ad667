import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { LEASE_MS, openQueue, tools, workerOptions } from "../test/fixture";
import { PG_URL, useHarness } from "../test/harness";
import { useWireModel } from "../test/wire-model";
import type { ChildSettings } from "../test/worker-child";
import { createWorker, type QueuedSpec } from "./index";

const h = useHarness("crash");

const wire = useWireModel();

/** A task enqueued for a child worker on the wire, which hangs where `settings` say and is SIGKILLed there. */
async function killedAt(settings: Omit<ChildSettings, "url" | "schema" | "baseUrl">, spec: QueuedSpec) {
  const { child, hanging } = h.childWorker({ ...settings, baseUrl: wire.proxy.baseUrl });
  const id = await h.queue.enqueue(spec, { owner: "acme" });
  await hanging;
  child.kill("SIGKILL");
  return id;
}

/** The task retaken by a worker of this process on the wire, until it settles. */
async function retaken(id: string) {
  const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema), { baseUrl: wire.proxy.baseUrl }));
  await worker.start();
  const done = await h.settled(id);
  await worker.stop();
  return done;
}

/**
 * Retaken after a worker stopped in step 3, whose answer was durable: that answer is not asked again
 * (two requests: turns 4 and 5), and step 3 runs again under the key it first ran with.
 */
async function expectStep3RunAgain(id: string) {
  const done = await retaken(id);
  expect([done.status, done.result?.output]).toEqual(["completed", "done after 4 steps"]);
  expect(wire.proxy.bodies.splice(0)).toHaveLength(2);
  expect(await h.effects(id)).toEqual(["step 1", "step 2", "step 3", "step 3", "step 4"]);
  const keys = await keysOf(id);
  expect(keys[3]).toBe(keys[2]);
}

describe.runIf(PG_URL)("a worker that dies", () => {
  it("SIGKILLed while a tool runs: no model call for its turn, only the unfinished call re-run, same key", async () => {
    const id = await killedAt({ hangAt: "step 3" }, { objective: "four steps", toolNames: ["step"] });
    // The dead worker sent turns 1–3; the third one's step ran, but its result died with it.
    const beforeCrash = wire.proxy.bodies.splice(0);
    expect(beforeCrash).toHaveLength(3);
    const keyOfStep3 = (await keysOf(id)).at(-1);
    const done = await retaken(id);
    expect([done.status, done.attempts, done.result?.output]).toEqual(["completed", 1, "done after 4 steps"]);
    const afterCrash = wire.proxy.bodies.splice(0);
    // Turn 3 was accepted before its step ran: it is not asked again (the provider would name its
    // call anew, and the key would change); only turns 4 and 5 are asked.
    expect(afterCrash).toHaveLength(2);
    // Each later request extends the one before it (messages appended, none rewritten), across the
    // crash too: the provider's prompt cache sees the dead worker's prefix.
    const messagesOf = (body: Buffer) => (JSON.parse(body.toString("utf8")) as { messages: unknown[] }).messages;
    const all = [...beforeCrash, ...afterCrash].map(messagesOf);
    for (let turn = 1; turn < all.length; turn++) {
      expect(all[turn]!.slice(0, all[turn - 1]!.length)).toEqual(all[turn - 1]);
    }
    expect(await h.effects(id)).toEqual(["step 1", "step 2", "step 3", "step 3", "step 4"]);
    // The re-run step 3 kept the first run's idempotency key, though every call id was random.
    const keys = await keysOf(id);
    expect(keys[3]).toBe(keyOfStep3);
    expect(new Set(keys).size).toBe(4);
  }, 40_000);

  it("SIGKILLed with a result in hand, before its link: run again under its key, its result told once", async () => {
    const id = await killedAt(
      { hangAt: "never", hangAtResultLink: 3 },
      { objective: "four steps", toolNames: ["step"] },
    );
    const told = async () => (await h.queue.events(id, "acme")).map((e) => e.event);
    // Step 3 returned, but nothing of its result reached the database: no link, and no event either.
    expect(await h.effects(id)).toEqual(["step 1", "step 2", "step 3"]);
    expect((await told()).map((e) => e.type)).toEqual(["take", "turn", "tool_result", "turn", "tool_result", "turn"]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    await expectStep3RunAgain(id);
    // The events tell what the run went on with: each turn and each result once, the re-run's result
    // in place of the one that died with the worker (the answer, turn 5, is told by the end).
    const events = await told();
    expect(events.filter((e) => e.type === "turn").map((e) => e.turns)).toEqual([1, 2, 3, 4]);
    expect(events.filter((e) => e.type === "tool_result")).toHaveLength(4);
    expect(events.map((e) => e.type)).toEqual([
      ...["take", "turn", "tool_result", "turn", "tool_result", "turn"],
      ...["take", "tool_result", "turn", "tool_result", "end"],
    ]);
  }, 40_000);

  it("SIGKILLed before a read-only result's link: it runs again, same key; no accepted answer re-asked", async () => {
    // Read-only results ride with the next accepted answer's link: the dead worker had look 2's
    // result and turn 3's answer in hand, and was writing them together.
    const spec = { objective: "look four times", toolNames: ["look"] };
    const id = await killedAt({ hangAt: "never", hangAtResultLink: 2 }, spec);
    expect(await h.effects(id)).toEqual(["look 1", "look 2"]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    const done = await retaken(id);
    expect([done.status, done.result?.output]).toEqual(["completed", "seen it all"]);
    // Turn 2's answer was durable: look 2 runs again under its key. Turn 3's answer never was, so it
    // is asked again, as it would be after any crash before its link; then turns 4 and 5.
    expect(await h.effects(id)).toEqual(["look 1", "look 2", "look 2", "look 3", "look 4"]);
    const keys = await keysOf(id);
    expect(keys[2]).toBe(keys[1]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    const types = (await h.queue.events(id, "acme")).map((e) => e.event.type);
    expect(types.filter((type) => type === "tool_result")).toHaveLength(4);
  }, 40_000);

  it("SIGKILLed before an idempotent result's link: it runs again under its key; one link a turn", async () => {
    // An idempotent tool's results ride with the next accepted answer's link, as read-only ones do.
    const id = await killedAt(
      { hangAt: "never", hangAtResultLink: 2 },
      { objective: "put four times", toolNames: ["put"] },
    );
    expect(await h.effects(id)).toEqual(["put 1", "put 2"]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    const done = await retaken(id);
    expect([done.status, done.result?.output]).toEqual(["completed", "all put"]);
    // Turn 2's answer was durable: put 2 runs again under its key, which the system it writes keeps once.
    expect(await h.effects(id)).toEqual(["put 1", "put 2", "put 2", "put 3", "put 4"]);
    const keys = await keysOf(id);
    expect(keys[2]).toBe(keys[1]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
  }, 40_000);

  it("SIGTERMed mid-tool, stopped as a host shuts down: handed back at once, the cut call run again", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 3", stopOnSigterm: true, baseUrl: wire.proxy.baseUrl });
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await hanging;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    expect(await exited).toEqual([0, null]);
    // The stopped worker gave the task up (its lease, with a job to hand it out): nothing waits for a lapse.
    const row = await h.admin.query<{ status: string; lease_owner: string | null }>(
      `SELECT status, lease_owner FROM ${h.schema}.tasks WHERE id = $1`,
      [id],
    );
    expect(row.rows).toEqual([{ status: "running", lease_owner: null }]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    // Step 3 was cut short by the stop: not checkpointed as stopped, so it runs again under its key.
    await expectStep3RunAgain(id);
  }, 40_000);

  it("SIGSTOPped mid-tool, taken over, then SIGCONTed: the thawed worker writes nothing, events included", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 2", hangMs: 1_000 });
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await hanging;
    child.kill("SIGSTOP");
    // Frozen: its lease lapses, pg-boss hands the job out again, and a live worker takes the task over.
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema), { baseUrl: wire.proxy.baseUrl }));
    await worker.start();
    const done = await h.settled(id);
    await worker.stop();
    expect(done.status).toBe("completed");
    const events = await h.queue.events(id, "acme");
    expect(events.at(-1)!.event).toMatchObject({ type: "end", status: "completed" });
    const row = await h.admin.query(
      `SELECT status, result::text, checkpoint::text,
        (SELECT json_agg(link ORDER BY seq)::text FROM ${h.schema}.task_turns WHERE task_id = $1) AS turns
       FROM ${h.schema}.tasks WHERE id = $1`,
      [id],
    );
    // Thawed: its step 2 returns at once (its timer ran out while it was stopped) and it tries to go on.
    child.kill("SIGCONT");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    child.kill("SIGKILL");
    expect(await h.queue.events(id, "acme")).toEqual(events);
    const after = await h.admin.query(
      `SELECT status, result::text, checkpoint::text,
        (SELECT json_agg(link ORDER BY seq)::text FROM ${h.schema}.task_turns WHERE task_id = $1) AS turns
       FROM ${h.schema}.tasks WHERE id = $1`,
      [id],
    );
    expect(after.rows).toEqual(row.rows);
  }, 40_000);

  it("parked by a worker gone since: approved from this process, resumed by another worker, run once", async () => {
    // The child worker parks the gated deploy (it never reaches a hang), then dies.
    const { child, hanging } = h.childWorker({ hangAt: "never" });
    hanging.catch(() => undefined); // it exits without hanging: that is this test's point
    const id = await h.queue.enqueue({ objective: "deploy now", toolNames: ["deploy"] }, { owner: "acme" });
    const parked = await h.settled(id);
    expect(parked.status).toBe("parked");
    child.kill("SIGKILL");
    await h.queue.approve(id, "acme", { decision: "approve" }, { parkId: parked.result!.parked!.parkId });
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema), { baseUrl: wire.proxy.baseUrl }));
    await worker.start();
    const done = await h.settled(id, "acme", ["completed", "failed", "unknown_outcome"]);
    await worker.stop();
    expect(done.status).toBe("completed");
    expect(await h.effects(id)).toEqual(["deploy prod"]);
  }, 40_000);

  it("SIGKILLed while executing an approved call: unknown_outcome, not run twice; reconciled as done", async () => {
    const id = await h.queue.enqueue({ objective: "deploy now", toolNames: ["deploy"] }, { owner: "acme" });
    const { child, hanging } = h.childWorker({ hangAt: "deploy 0" });
    expect((await h.settled(id)).status).toBe("parked");
    await h.queue.approve(id, "acme", { decision: "approve" });
    await hanging;
    child.kill("SIGKILL");
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    try {
      const stuck = await h.settled(id, "acme", ["unknown_outcome", "completed", "failed"]);
      expect(stuck.status).toBe("unknown_outcome");
      expect(stuck.error).toMatch(/unknown/);
      // Left alone, it stays: a later job, lease or worker never turns it into a second execution.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await h.queue.getTask(id, "acme")).status).toBe("unknown_outcome");
      expect(await h.effects(id)).toEqual(["deploy prod"]);
      // A person checks the target and says the deploy happened: the run goes on without running it.
      await h.queue.reconcile(id, "acme", { happened: true, result: "deployed prod (checked by hand)" });
      const done = await h.settled(id, "acme", ["completed", "failed"]);
      expect(done.status).toBe("completed");
      expect(JSON.stringify(done.result?.messages)).toContain("checked by hand");
      expect(await h.effects(id)).toEqual(["deploy prod"]);
      await expect(h.queue.reconcile(id, "acme", { happened: false })).rejects.toMatchObject({
        code: "not_unknown_outcome",
      });
    } finally {
      await worker.stop();
    }
  }, 40_000);

  it("two reconciles racing on one unknown_outcome: one wins; 'did not happen' runs the call once", async () => {
    const id = await h.queue.enqueue({ objective: "deploy later", toolNames: ["deploy"] }, { owner: "acme" });
    // This time the worker dies before the deploy took effect.
    const { child, hanging } = h.childWorker({ hangAt: "deploy 0", hangWhen: "before" });
    expect((await h.settled(id)).status).toBe("parked");
    await h.queue.approve(id, "acme", { decision: "approve" });
    await hanging;
    child.kill("SIGKILL");
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    const other = openQueue(PG_URL!, h.schema);
    await other.start();
    try {
      expect((await h.settled(id, "acme", ["unknown_outcome", "completed"])).status).toBe("unknown_outcome");
      expect(await h.effects(id)).toEqual([]);
      const answers = await Promise.allSettled([
        h.queue.reconcile(id, "acme", { happened: false }),
        other.reconcile(id, "acme", { happened: false }),
      ]);
      expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
      expect(answers.find((a) => a.status === "rejected")).toMatchObject({ reason: { code: "not_unknown_outcome" } });
      const done = await h.settled(id, "acme", ["completed", "failed", "unknown_outcome"]);
      expect([done.status, done.result?.output]).toEqual(["completed", "deployed"]);
      expect(await h.effects(id)).toEqual(["deploy prod"]);
    } finally {
      await other.stop();
      await worker.stop();
    }
  }, 40_000);

  it("a task that keeps losing its worker ends dead_letter, visible, after maxAttempts", async () => {
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    for (let i = 0; i < 3; i++) {
      const { child, hanging } = h.childWorker({ hangAt: "step 1" });
      await hanging;
      child.kill("SIGKILL");
      // Wait until the lease lapsed, so the next child takes the retry rather than finding it held.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    }
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    const dead = await h.settled(id, "acme", ["dead_letter", "completed"]);
    await worker.stop();
    expect(dead.status).toBe("dead_letter");
    expect(dead.error).toMatch(/taken 3 times without progress/);
    expect(await h.effects(id)).toEqual(["step 1", "step 1", "step 1"]);
  }, 60_000);
});

/** The idempotency keys the tools recorded for a task's effects, in order. */
async function keysOf(taskId: string): Promise<string[]> {
  const found = await h.admin.query<{ idempotency_key: string }>(
    `SELECT idempotency_key FROM ${h.schema}.effects WHERE idempotency_key LIKE $1 ORDER BY at`,
    [`${taskId}:%`],
  );
  return found.rows.map((row) => row.idempotency_key);
}
