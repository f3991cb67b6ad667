// Teacher mode as a queued task (`kinds`, with @x/teacher's teacherTask) on the real PostgreSQL: an uncut
// run, workers SIGKILLed mid-escalation in a child process, a parked student run, a tampered state.
import type { PostgresStrategyStore } from "@x/strategy-store-postgres";
import type { TeacherRunResult } from "@x/teacher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL, useHarness } from "../test/harness";
import { tools, workerOptions } from "../test/fixture";
import { ADVICE, openStrategies, RIGHT, teacherBrain, teacherWorkerOptions } from "../test/teacher-fixture";
import { createWorker, QueueError, type QueuedTask } from "./index";

const h = useHarness("teacher");
let strategies: PostgresStrategyStore;
beforeAll(async () => {
  if (PG_URL) strategies = await openStrategies(PG_URL, h.schema);
});
afterAll(async () => {
  await strategies?.close();
  await h.admin?.query(`DROP SCHEMA IF EXISTS ${h.schema}_strategies CASCADE`);
});

const OBJECTIVE = "How many gaps between 42 posts in a row?";

/** Runs `body` with an in-process teacher worker; `calls` lists each model call's seat. */
async function withWorker<T>(body: (calls: string[]) => Promise<T>): Promise<T> {
  const calls: string[] = [];
  const worker = createWorker(teacherWorkerOptions(h.queue, strategies, teacherBrain(calls)));
  await worker.start();
  try {
    return await body(calls);
  } finally {
    await worker.stop();
  }
}

/** The distinct idempotency keys a task's effect `name` was recorded under. */
async function keysOf(id: string, name: string): Promise<string[]> {
  const found = await h.admin.query<{ k: string }>(
    `SELECT DISTINCT idempotency_key AS k FROM ${h.schema}.effects WHERE name = $1 AND idempotency_key LIKE $2`,
    [name, `${id}:%`],
  );
  return found.rows.map((row) => row.k);
}

const teacherResult = (task: QueuedTask) => task.result as TeacherRunResult;
const stored = async (scope: string) => (await strategies.list({ scope })).records.map((r) => [r.strategy, r.uses]);

/** What an uncut run shows, for the cut runs to be compared with. */
const UNCUT = {
  status: "completed",
  output: RIGHT,
  escalations: [[1, "verify-fail", ADVICE.strategy, false]],
};
const shape = (task: QueuedTask) => ({
  status: task.status,
  output: task.result?.output,
  escalations: teacherResult(task).escalations.map((e) => [e.attempt, e.trigger, e.teacher.strategy, e.tookOver]),
});

describe.runIf(PG_URL)("a queued teacher task", () => {
  it("uncut: the student is corrected once, the strategy stored once in the task's scope", async () => {
    await withWorker(async (calls) => {
      const id = await h.queue.enqueue(
        { objective: OBJECTIVE, toolNames: ["step"] },
        { owner: "acme", kind: "teacher", scope: "acme/uncut" },
      );
      const task = await h.settled(id);
      expect(shape(task)).toEqual(UNCUT);
      expect(task.kind).toBe("teacher");
      expect(calls.filter((c) => c === "teacher")).toHaveLength(1);
      expect(await stored("acme/uncut")).toEqual([[ADVICE.strategy, 0]]);
      expect(await h.effects(id)).toEqual(["step 1", "step 2"]);
      expect(teacherResult(task).teacherStats.tasks).toBe(1);
    });
  });

  it("SIGKILLed while the student runs after the advice: finished by another worker, nothing repeated", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 1" }, "teacher-child.ts");
    const scope = "acme/cut-student";
    const id = await h.queue.enqueue(
      { objective: OBJECTIVE, toolNames: ["step"] },
      { owner: "acme", kind: "teacher", scope },
    );
    await hanging;
    child.kill("SIGKILL");
    await withWorker(async (calls) => {
      const task = await h.settled(id);
      expect(shape(task)).toEqual(UNCUT);
      // The advice on record is not asked again, and the student's accepted turn is not asked again:
      // only its step 1 re-runs, under the same idempotency key.
      expect(calls.filter((c) => c === "teacher")).toHaveLength(0);
      expect(await stored(scope)).toEqual([[ADVICE.strategy, 0]]);
      expect(await h.effects(id)).toEqual(["step 1", "step 1", "step 2"]);
      expect(await keysOf(id, "step 1")).toEqual([`${id}:student-2:step-1`]);
      // The dead worker's spend is billed: both student runs and the advice, across the two takes.
      expect(teacherResult(task).teacherStats.tasks).toBe(1);
      expect(teacherResult(task).stats.tasks).toBe(2);
    });
  });

  it("SIGKILLed while the teacher's advice call is in flight: the advice asked once more, recorded once", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "advice" }, "teacher-child.ts");
    const scope = "acme/cut-advice";
    const id = await h.queue.enqueue(
      { objective: OBJECTIVE, toolNames: ["step"] },
      { owner: "acme", kind: "teacher", scope },
    );
    await hanging;
    child.kill("SIGKILL");
    await withWorker(async (calls) => {
      const task = await h.settled(id);
      expect(shape(task)).toEqual(UNCUT);
      expect(calls.filter((c) => c === "teacher")).toHaveLength(1);
      // The student's first run was recorded by the dead worker: it is not run again.
      expect(calls.filter((c) => c === "student")).toHaveLength(3);
      expect(await stored(scope)).toEqual([[ADVICE.strategy, 0]]);
    });
  });

  it("SIGKILLed while a stuck student runs: the retake's tracker counts what its checkpoint holds", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "probe 2" }, "teacher-child.ts");
    const scope = "acme/cut-stuck";
    const spec = { objective: `${OBJECTIVE} Use probe.`, toolNames: ["step", "probe"] };
    const id = await h.queue.enqueue(spec, { owner: "acme", kind: "teacher", scope });
    await hanging;
    child.kill("SIGKILL");
    await withWorker(async () => {
      const task = await h.settled(id);
      expect(shape(task)).toEqual({ ...UNCUT, escalations: [[1, "stuck", ADVICE.strategy, false]] });
      // Probe 1 failed before the crash and is in the checkpoint: with probe 2 run again (same key), the
      // third failure in a row is probe 3 — a tracker that forgot probe 1 would have let probe 4 run.
      expect(await h.effects(id)).toEqual(["probe 1", "probe 2", "probe 2", "probe 3", "step 1", "step 2"]);
      expect(await stored(scope)).toEqual([[ADVICE.strategy, 0]]);
    });
  });

  it("SIGKILLed mid-takeover: the takeover goes on from its checkpoint, the advice not asked again", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 1" }, "teacher-child.ts");
    const scope = "acme/cut-takeover";
    const spec = { objective: `${OBJECTIVE} If stuck, hand over.`, toolNames: ["step"] };
    const id = await h.queue.enqueue(spec, { owner: "acme", kind: "teacher", scope });
    await hanging;
    child.kill("SIGKILL");
    await withWorker(async (calls) => {
      const task = await h.settled(id);
      expect(shape(task)).toEqual({ ...UNCUT, escalations: [[1, "verify-fail", ADVICE.strategy, true]] });
      // The takeover's first turn was accepted before the crash: asked again are only its turns 2 and 3.
      expect(calls).toEqual(["takeover", "takeover"]);
      expect(await h.effects(id)).toEqual(["step 1", "step 1", "step 2"]);
      expect(await keysOf(id, "step 1")).toEqual([`${id}:takeover:step-1`]);
      expect(await stored(scope)).toEqual([[ADVICE.strategy, 0]]);
      expect(teacherResult(task).teacherStats.tasks).toBe(2);
    });
  });

  it("a student run that parks parks the task; approved from here, it resumes with its escalation state", async () => {
    await withWorker(async (calls) => {
      const scope = "acme/parked";
      const id = await h.queue.enqueue(
        { objective: `${OBJECTIVE} Then deploy.`, toolNames: ["step", "deploy"] },
        { owner: "acme", kind: "teacher", scope },
      );
      const parked = await h.settled(id);
      expect(parked.status).toBe("parked");
      expect(teacherResult(parked).escalations).toHaveLength(1);
      expect(await stored(scope)).toEqual([]);
      await h.queue.approve(id, "acme", { decision: "approve" }, { parkId: parked.result!.parked!.parkId });
      const task = await h.settled(id, "acme", ["completed", "failed", "dead_letter"]);
      expect(shape(task)).toEqual(UNCUT);
      expect(calls.filter((c) => c === "teacher")).toHaveLength(1);
      expect(await h.effects(id)).toEqual(["deploy prod", "step 1", "step 2"]);
      expect(await stored(scope)).toEqual([[ADVICE.strategy, 0]]);
    });
  });

  it("a stored teacher state altered in the table is refused: the task fails teacher.state_tampered", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 1" }, "teacher-child.ts");
    const id = await h.queue.enqueue(
      { objective: OBJECTIVE, toolNames: ["step"] },
      { owner: "acme", kind: "teacher", scope: "acme/tampered" },
    );
    await hanging;
    child.kill("SIGKILL");
    const row = await h.admin.query<{ s: { steps: Record<string, { advice?: { strategy?: string } }> } }>(
      `SELECT driver_state AS s FROM ${h.schema}.tasks WHERE id = $1`,
      [id],
    );
    const state = row.rows[0]!.s;
    state.steps["advice:1"]!.advice!.strategy = "Always answer 7.";
    await h.admin.query(`UPDATE ${h.schema}.tasks SET driver_state = $2 WHERE id = $1`, [id, JSON.stringify(state)]);
    await withWorker(async (calls) => {
      const task = await h.settled(id);
      expect(task.status).toBe("failed");
      expect(task.error).toMatch(/^teacher\.state_tampered: /);
      expect(calls).toEqual([]);
      expect(await stored("acme/tampered")).toEqual([]);
    });
  });

  it("a worker without the kind fails the task kind_unavailable, running nothing; a bad kind is refused", async () => {
    const enqueued = h.queue.enqueue({ objective: OBJECTIVE, toolNames: [] }, { owner: "acme", kind: "Teacher!" });
    await expect(enqueued).rejects.toThrow(QueueError);
    const plain = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await plain.start();
    try {
      const id = await h.queue.enqueue({ objective: OBJECTIVE, toolNames: [] }, { owner: "acme", kind: "council" });
      const task = await h.settled(id);
      expect([task.status, task.result]).toEqual(["failed", null]);
      expect(task.error).toMatch(/^kind_unavailable: /);
    } finally {
      await plain.stop();
    }
  });
});
