import { createFauxBrain, fauxText, fauxToolCall } from "@x/brain-faux";
import { defineTool } from "@x/runner";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { workerOptions } from "../test/fixture";
import { PG_URL, useHarness } from "../test/harness";
import { createWorker, QueueError } from "./index";

const h = useHarness("tenancy");
const store = new MemoryStrategyStore();

beforeAll(async () => {
  const strategy = (scope: string, text: string) =>
    store.put({ scope, problem: "how to deploy the service", strategy: text, confidence: 2, source: "teacher" });
  await strategy("acme", "acme: canary first, then the rest");
  await strategy("acme/eu", "acme/eu: deploy outside business hours");
  await strategy("globex", "globex: blue-green, switch the router");
});

/** Calls `recall` once, then answers with what it returned: the task's output is what the tool could read. */
const echoBrain = createFauxBrain(({ context }) => {
  const result = context.messages.find((m) => m.role === "toolResult");
  if (!result) return fauxToolCall("recall", { query: "deploy the service" }, { id: "recall-1" });
  return fauxText(result.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
});

/** What a host does: the task's tools are bound to its owner and scope when the worker takes it. */
const boundTo: Array<{ owner: string; scope: string | null }> = [];
const scopedTools = (task: { owner: string; scope: string | null }) => {
  boundTo.push({ owner: task.owner, scope: task.scope });
  return [
    defineTool({
      name: "recall",
      description: "strategies that worked before, for this tenant",
      input: z.object({ query: z.string() }),
      execute: async ({ query }) => {
        if (task.scope === null) return "no strategy scope";
        const hits = await store.search({ scope: task.scope, query, k: 5 });
        return hits.map((hit) => hit.record.strategy).join(" | ");
      },
    }),
  ];
};

async function runAll(ids: string[], owners: string[]) {
  const worker = createWorker(workerOptions(h.queue, scopedTools, { faux: echoBrain }));
  await worker.start();
  try {
    return await Promise.all(ids.map((id, i) => h.settled(id, owners[i])));
  } finally {
    await worker.stop();
  }
}

describe.runIf(PG_URL)("tenants", () => {
  it("a worker hands each task only its own scope: its tools read that scope's strategies, no other", async () => {
    const spec = { objective: "deploy the service", toolNames: ["recall"] };
    const ids = [
      await h.queue.enqueue(spec, { owner: "acme", scope: "acme" }),
      await h.queue.enqueue(spec, { owner: "acme", scope: "acme/eu" }),
      await h.queue.enqueue(spec, { owner: "globex", scope: "globex" }),
      await h.queue.enqueue(spec, { owner: "globex" }),
    ];
    const tasks = await runAll(ids, ["acme", "acme", "globex", "globex"]);
    expect(tasks.map((t) => [t.status, t.result?.output])).toEqual([
      ["completed", "acme: canary first, then the rest"],
      ["completed", "acme/eu: deploy outside business hours"],
      ["completed", "globex: blue-green, switch the router"],
      ["completed", "no strategy scope"],
    ]);
    expect(boundTo).toEqual(
      expect.arrayContaining([
        { owner: "acme", scope: "acme" },
        { owner: "acme", scope: "acme/eu" },
        { owner: "globex", scope: "globex" },
        { owner: "globex", scope: null },
      ]),
    );
  });

  it("enqueuing into another tenant's scope is refused with a typed error, and nothing is stored", async () => {
    const count = async () => (await h.admin.query(`SELECT count(*)::int AS n FROM ${h.schema}.tasks`)).rows[0].n;
    const before = await count();
    const foreign = [
      ["globex", "acme"],
      ["globex", "acme/eu"],
      ["acme", "acmeco"],
      ["globex", ""],
    ] as const;
    for (const [owner, scope] of foreign) {
      const refused = await h.queue
        .enqueue({ objective: "read another tenant's strategies", toolNames: ["recall"] }, { owner, scope })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(QueueError);
      expect(refused).toMatchObject({ code: "scope_refused" });
    }
    expect(await count()).toBe(before);
  });

  it("a row naming another tenant's scope (written around enqueue) is failed by the worker, no tool made", async () => {
    const id = "smuggled-1";
    await h.admin.query(
      `INSERT INTO ${h.schema}.tasks (id, owner, scope, status, spec) VALUES ($1, 'globex', 'acme', 'queued', $2)`,
      [id, JSON.stringify({ objective: "read acme's strategies", toolNames: ["recall"] })],
    );
    await h.queue.send(id);
    boundTo.length = 0;
    const [task] = await runAll([id], ["globex"]);
    expect(task!.status).toBe("failed");
    expect(task!.error).toMatch(/^scope_refused: owner globex may not run tasks in scope "acme"/);
    expect(task!.result).toBeNull();
    expect(boundTo).toEqual([]);
  });

  it("another owner's task answers every call exactly like a missing one", async () => {
    const id = await h.queue.enqueue({ objective: "deploy the service", toolNames: ["recall"] }, { owner: "acme" });
    const calls = [
      () => h.queue.getTask(id, "globex"),
      () => h.queue.events(id, "globex"),
      () => h.queue.approve(id, "globex", { decision: "approve" }),
      () => h.queue.reconcile(id, "globex", { happened: false }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: "not_found", message: `no task ${id} for this owner` });
    }
    await expect(h.queue.getTask("no-such-task", "globex")).rejects.toMatchObject({
      code: "not_found",
      message: "no task no-such-task for this owner",
    });
  });
});
