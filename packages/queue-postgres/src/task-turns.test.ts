import { createFauxBrain, fauxText } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { aroundQueries } from "../test/around-queries";
import { scripted, tools, workerOptions } from "../test/fixture";
import { PG_URL, useHarness } from "../test/harness";
import { createWorker } from "./index";
import { ensureSchema } from "./sql";

const h = useHarness("turns");

interface LinkRow {
  seq: number;
  messages: number;
  bytes: number;
  base: boolean;
}

// Read as text and parsed here: PostgreSQL's json operators refuse the NUL escape a run may hold.
const chainOf = async (taskId: string): Promise<LinkRow[]> => {
  const found = await h.admin.query<{ seq: number; link: string }>(
    `SELECT seq, link::text AS link FROM ${h.schema}.task_turns WHERE task_id = $1 ORDER BY seq`,
    [taskId],
  );
  return found.rows.map(({ seq, link }) => {
    const parsed = JSON.parse(link) as { messages: unknown[]; base?: unknown };
    return { seq, messages: parsed.messages.length, bytes: link.length, base: parsed.base !== undefined };
  });
};

interface Statement {
  text: string;
  values: unknown[];
}

/**
 * Runs one task on a worker of this process, with `workerTools` (told the task's id as soon as it is
 * enqueued); every statement the queue's pool sent meanwhile.
 */
async function statementsOf(
  spec: { objective: string; toolNames: string[] },
  workerTools = tools(h.queue.pool, h.schema),
  enqueued: (taskId: string) => void = () => undefined,
) {
  const statements: Statement[] = [];
  const restore = aroundQueries(h.queue.pool, (send, args) => {
    const first = args[0] as string | { text: string; values?: unknown[] };
    statements.push(
      typeof first === "string"
        ? { text: first, values: (args[1] as unknown[] | undefined) ?? [] }
        : { text: first.text, values: first.values ?? [] },
    );
    return send(...args);
  });
  try {
    const worker = createWorker(workerOptions(h.queue, workerTools));
    await worker.start();
    const taskId = await h.queue.enqueue(spec, { owner: "acme" });
    enqueued(taskId);
    expect((await h.settled(taskId)).status).toBe("completed");
    await worker.stop();
    return { taskId, statements };
  } finally {
    restore();
  }
}

const insertsLink = (statement: Statement) => /INSERT INTO \S+task_turns/.test(statement.text);

describe.runIf(PG_URL)("a task's checkpoint chain", () => {
  it("a finished turn writes one link with only its own messages; the chain is dropped at the end", async () => {
    let seen: LinkRow[] = [];
    let taskId = "";
    const hooked = tools(h.queue.pool, h.schema, {
      before: async (_name, n) => {
        if (n === 4) seen = await chainOf(taskId);
      },
    });
    const worker = createWorker(workerOptions(h.queue, hooked));
    await worker.start();
    taskId = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    const done = await h.settled(taskId);
    await worker.stop();
    expect(done.status).toBe("completed");
    // Before step 4 runs: link 0 (objective + turn 1's answer), then one message per link — a
    // result, the next accepted answer, … — up to turn 4's accepted answer.
    expect(seen.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seen.map((l) => l.messages)).toEqual([2, 1, 1, 1, 1, 1, 1]);
    expect(seen.map((l) => l.base)).toEqual([true, false, false, false, false, false, false]);
    // A later link is no larger than an earlier one of the same kind: nothing of the run so far rides along.
    expect(seen[5]!.bytes).toBeLessThan(seen[3]!.bytes + 64);
    expect(seen[6]!.bytes).toBeLessThan(seen[4]!.bytes + 64);
    expect(await chainOf(taskId)).toEqual([]);
  });

  it("a turn's events are written with the link that makes it durable: one statement a link, none beside", async () => {
    let seen: string[] = [];
    let taskId = "";
    const hooked = tools(h.queue.pool, h.schema, {
      before: async (_name, n) => {
        if (n !== 4) return;
        const found = await h.admin.query<{ event: { type: string; turns?: number } }>(
          `SELECT event FROM ${h.schema}.task_events WHERE task_id = $1 ORDER BY seq`,
          [taskId],
        );
        seen = found.rows.map(({ event }) => `${event.type}${event.turns ?? ""}`);
      },
    });
    const { statements } = await statementsOf({ objective: "four steps", toolNames: ["step"] }, hooked, (id) => {
      taskId = id;
    });
    // Before step 4 runs, steps 1–3's results are in the chain (links 1, 3, 5): so are their events, no more.
    expect(seen).toEqual(["take", "turn1", "tool_result", "turn2", "tool_result", "turn3", "tool_result", "turn4"]);
    const touching = (table: string) => statements.filter((s) => s.text.includes(`${h.schema}.${table}`));
    const links = statements.filter(insertsLink);
    // Four answers with a tool call and their results: eight links. The final answer ends the task instead.
    expect(links).toHaveLength(8);
    // Events go only with a link, or with the take and the end.
    const eventsAlone = touching("task_events").filter((s) => !s.text.includes("task_turns"));
    expect(eventsAlone).toHaveLength(1);
    expect(eventsAlone[0]!.text).toMatch(/INSERT INTO \S+task_events \(task_id, event\)\s+SELECT id, \$2/);
  });

  it("a read-only tool turn is one link: its results ride with the next accepted answer's", async () => {
    const { taskId, statements } = await statementsOf({ objective: "look four times", toolNames: ["look"] });
    expect(await h.effects(taskId)).toEqual(["look 1", "look 2", "look 3", "look 4"]);
    const links = statements.filter(insertsLink).map((statement) => {
      const text = statement.values.find((v) => typeof v === "string" && v.includes('"seq":')) as string;
      const link = JSON.parse(text) as { seq: number; messages: Array<{ role: string }> };
      return { seq: link.seq, roles: link.messages.map((m) => m.role) };
    });
    // Four answers with a call: four links (eight for a tool that is not read-only, above).
    expect(links).toEqual([
      { seq: 0, roles: ["user", "assistant"] },
      { seq: 1, roles: ["toolResult", "assistant"] },
      { seq: 2, roles: ["toolResult", "assistant"] },
      { seq: 3, roles: ["toolResult", "assistant"] },
    ]);
  });

  it("a link is stored lz4-compressed; a chain table made before (pglz) is switched once", async () => {
    const column = async () => {
      const found = await h.admin.query<{ compression: string }>(
        `SELECT attcompression AS compression FROM pg_attribute
         WHERE attrelid = '${h.schema}.task_turns'::regclass AND attname = 'link'`,
      );
      return found.rows[0]!.compression;
    };
    expect(await column()).toBe("l");
    await h.admin.query(`ALTER TABLE ${h.schema}.task_turns ALTER COLUMN link SET COMPRESSION pglz`);
    expect(await column()).toBe("p");
    await ensureSchema(h.admin, h.schema);
    expect(await column()).toBe("l");
    await ensureSchema(h.admin, h.schema);
    expect(await column()).toBe("l");
    // A link as large as a turn with a 4 KB tool result: compressed, with lz4.
    const taskId = `lz4-${Date.now()}`;
    await h.admin.query(
      `INSERT INTO ${h.schema}.tasks (id, owner, status, spec) VALUES ($1, 'acme', 'running', '{}')`,
      [taskId],
    );
    await h.admin.query(`INSERT INTO ${h.schema}.task_turns (task_id, seq, link) VALUES ($1, 0, $2)`, [
      taskId,
      JSON.stringify({ messages: [{ role: "toolResult", content: "const value = await turn(page);\n".repeat(200) }] }),
    ]);
    const stored = await h.admin.query<{ compression: string | null }>(
      `SELECT pg_column_compression(link) AS compression FROM ${h.schema}.task_turns WHERE task_id = $1`,
      [taskId],
    );
    expect(stored.rows[0]!.compression).toBe("lz4");
    await h.admin.query(`DELETE FROM ${h.schema}.tasks WHERE id = $1`, [taskId]);
  });

  it("a worker stopped while the model answers hands the task back, waiting results written: none re-run", async () => {
    // The stopping worker's model takes its time over turn 3, with look 2's result waiting to ride.
    let asked: () => void = () => undefined;
    const turn3Asked = new Promise<void>((resolve) => (asked = resolve));
    const slow = createFauxBrain((call) => {
      const results = call.context.messages.filter((m) => m.role === "toolResult").length;
      if (results < 2) return scripted(call);
      asked();
      return { ...fauxText("too late"), delayMs: 60_000 };
    });
    const stopping = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema), { faux: slow }));
    await stopping.start();
    const id = await h.queue.enqueue({ objective: "look four times", toolNames: ["look"] }, { owner: "acme" });
    await turn3Asked;
    await stopping.stop(0);
    // Handed back, not a failed take: free for the next worker, its take count back to 0.
    const handed = await h.admin.query<{ lease_owner: string | null; attempts: number }>(
      `SELECT lease_owner, attempts FROM ${h.schema}.tasks WHERE id = $1`,
      [id],
    );
    expect(handed.rows).toEqual([{ lease_owner: null, attempts: 0 }]);
    expect(await h.effects(id)).toEqual(["look 1", "look 2"]);
    expect((await chainOf(id)).map((l) => l.messages)).toEqual([2, 2, 1]);
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    const done = await h.settled(id);
    await worker.stop();
    expect(done.status).toBe("completed");
    expect(await h.effects(id)).toEqual(["look 1", "look 2", "look 3", "look 4"]);
  }, 30_000);

  it("a link changed in the table is refused on the retake: the task fails, no step runs again", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 3" });
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await hanging;
    child.kill("SIGKILL");
    expect((await chainOf(id)).length).toBeGreaterThan(2);
    // Someone with write access to the table rewrites step 1's result.
    await h.admin.query(
      `UPDATE ${h.schema}.task_turns SET link = replace(link::text, 'step 1 done', 'step 1 failed')::json
       WHERE task_id = $1 AND seq = 1`,
      [id],
    );
    const effects = await h.effects(id);
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    const done = await h.settled(id);
    await worker.stop();
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/link 1 of a run checkpoint chain does not match its signature/);
    expect(await h.effects(id)).toEqual(effects);
  }, 30_000);

  it("links out of order in the table are refused on the retake", async () => {
    const { child, hanging } = h.childWorker({ hangAt: "step 3" });
    const id = await h.queue.enqueue({ objective: "four steps", toolNames: ["step"] }, { owner: "acme" });
    await hanging;
    child.kill("SIGKILL");
    // Swap links 1 and 2: each still carries a valid signature of its own.
    const turns = `${h.schema}.task_turns`;
    for (const [from, to] of [
      [1, -1],
      [2, 1],
      [-1, 2],
    ])
      await h.admin.query(`UPDATE ${turns} SET seq = $3 WHERE task_id = $1 AND seq = $2`, [id, from, to]);
    const worker = createWorker(workerOptions(h.queue, tools(h.queue.pool, h.schema)));
    await worker.start();
    const done = await h.settled(id);
    await worker.stop();
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/chain is broken at link 1/);
  }, 30_000);
});
