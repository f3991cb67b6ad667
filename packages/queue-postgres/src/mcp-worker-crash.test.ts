import { connectMcp } from "@x/mcp";
import { beforeEach, describe, expect, it } from "vitest";
import { workerOptions } from "../test/fixture";
import { PG_URL, until, useHarness } from "../test/harness";
import { ledgerServer } from "../test/mcp-ledger";
import { useWireModel } from "../test/wire-model";
import type { ChildSettings } from "../test/worker-child";
import { createWorker, type QueuedSpec } from "./index";

const h = useHarness("mcpcrash");

const wire = useWireModel((tool) => `ledger__${tool}`);

/**
 * What the ledger server recorded (each test starts it afresh): each call's name, the key it was
 * sent and the server's pid, in order.
 */
async function ledger() {
  const found = await h.admin.query<{ name: string; idempotency_key: string; pid: number }>(
    `SELECT name, idempotency_key, pid FROM ${h.schema}.effects ORDER BY at`,
  );
  return found.rows.map((row) => ({ name: row.name, key: row.idempotency_key, pid: row.pid }));
}

beforeEach(async () => {
  if (PG_URL) await h.admin.query(`DELETE FROM ${h.schema}.effects`);
});

/**
 * A task enqueued for a child worker whose tools are the ledger server's; SIGKILLed once it hangs —
 * at a link (`hangAtResultLink`), or in the server's call (`hangAt`, seen when the server records it).
 */
async function killedAt(settings: Pick<ChildSettings, "hangAt" | "hangAtResultLink">, spec: QueuedSpec) {
  const { child, hanging } = h.childWorker({ ...settings, baseUrl: wire.proxy.baseUrl }, "mcp-worker-child.ts");
  const id = await h.queue.enqueue(spec, { owner: "acme" });
  if (settings.hangAt === "never") await hanging;
  else {
    // The child never says it hangs (its server does, by recording the call): its exit is expected.
    hanging.catch(() => undefined);
    await until(async () => ((await ledger()).some((e) => e.name === settings.hangAt) ? true : undefined));
  }
  child.kill("SIGKILL");
  return id;
}

/** The task retaken by a worker of this process, on its own connection to a new ledger server. */
async function retaken(id: string) {
  const toolset = await connectMcp([ledgerServer({ url: PG_URL!, schema: h.schema })]);
  const worker = createWorker(workerOptions(h.queue, toolset.tools(), { baseUrl: wire.proxy.baseUrl }));
  await worker.start();
  try {
    return await h.settled(id);
  } finally {
    await worker.stop();
    await toolset.close();
  }
}

describe.runIf(PG_URL)("a durable run whose tools are an MCP server's, its worker killed", () => {
  it("SIGKILLed before an idempotentHint result's link: a new server runs the same call, same key", async () => {
    const spec = { objective: "put four times", toolNames: ["ledger__put"] };
    const id = await killedAt({ hangAt: "never", hangAtResultLink: 2 }, spec);
    const first = await ledger();
    expect(first.map((e) => e.name)).toEqual(["put 1", "put 2"]);
    // The result of put 2 rides with turn 3's answer: that link was being written.
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    const done = await retaken(id);
    expect([done.status, done.result?.output]).toEqual(["completed", "all put"]);
    const all = await ledger();
    expect(all.map((e) => e.name)).toEqual(["put 1", "put 2", "put 2", "put 3", "put 4"]);
    // Turn 2's answer was durable: its call is run again on the new server under the key the first
    // server was given, though the provider named every call anew; turn 3 is asked again.
    expect(all[2]!.key).toBe(all[1]!.key);
    expect(new Set(all.map((e) => e.key)).size).toBe(4);
    expect(all.every((e) => !e.key.includes(id))).toBe(true);
    expect(all[2]!.pid).not.toBe(all[1]!.pid);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
  }, 40_000);

  it("SIGKILLed while the server runs an effect: its answer not asked again, the call re-run, same key", async () => {
    const id = await killedAt({ hangAt: "step 3" }, { objective: "four steps", toolNames: ["ledger__step"] });
    expect((await ledger()).map((e) => e.name)).toEqual(["step 1", "step 2", "step 3"]);
    expect(wire.proxy.bodies.splice(0)).toHaveLength(3);
    const done = await retaken(id);
    expect([done.status, done.result?.output]).toEqual(["completed", "done after 4 steps"]);
    // Each of step 1 and 2 had its own link once its result came in: neither runs again.
    const all = await ledger();
    expect(all.map((e) => e.name)).toEqual(["step 1", "step 2", "step 3", "step 3", "step 4"]);
    expect(all[3]!.key).toBe(all[2]!.key);
    expect(new Set(all.map((e) => e.key)).size).toBe(4);
    // Turn 3 was accepted before its call went to the server: only turns 4 and 5 are asked.
    expect(wire.proxy.bodies.splice(0)).toHaveLength(2);
  }, 40_000);
});
