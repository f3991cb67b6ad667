import { describe, expect, it } from "vitest";
import type { TaskJob } from "./task-queue";
import { PG_URL, useHarness } from "../test/harness";

const h = useHarness("retake");

describe.runIf(PG_URL)("a retake does not wait behind new work", () => {
  it("a look-again job for a task under way is handed out before a backlog enqueued earlier", async () => {
    const backlog: string[] = [];
    for (let i = 0; i < 40; i++) {
      backlog.push(await h.queue.enqueue({ objective: `task ${i}`, toolNames: [] }, { owner: "acme" }));
    }
    // The first task's worker died: its lease lapses now, so a worker looks again at once.
    await h.queue.send(backlog[0]!, undefined, 0);
    const [first] = await h.queue.boss.fetch<TaskJob>(h.queue.jobName, { batchSize: 1, includeMetadata: true });
    expect([first?.data.taskId, first?.priority]).toEqual([backlog[0], 1]);
    // Behind it, the new work: every one of the 40 jobs enqueued before it, none lost.
    const rest = await h.queue.boss.fetch<TaskJob>(h.queue.jobName, { batchSize: 100 });
    expect(rest.map((job) => job.data.taskId).sort()).toEqual([...backlog].sort());
  });
});
