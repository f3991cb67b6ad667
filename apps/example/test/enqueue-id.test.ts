// `x-agent enqueue` against a real PostgreSQL (PG_URL): a person's stdout is the task's id alone, so
// `id=$(x-agent enqueue …)` works, its note goes to stderr; --json carries the id in a `queued` event.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTaskQueue } from "@x/queue-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ofType, parseEvents, runCli } from "./cli-helpers";

const server = process.env.PG_URL;
// A database of this test's own: the tasks it queues are never taken by another test's workers.
const database = `x_agent_enqueue_id_${process.pid}`;
const url = server === undefined ? undefined : Object.assign(new URL(server), { pathname: `/${database}` }).href;
const owner = `cli-enqueue-id-${process.pid}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let cwd: string;

/** Runs one statement on the server's own database (CREATE/DROP DATABASE cannot run inside the target). */
async function onServer(sql: string): Promise<void> {
  const admin = createTaskQueue({ connectionString: server! });
  try {
    await admin.pool.query(sql);
  } finally {
    await admin.pool.end();
  }
}

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "x-agent-enqueue-id-"));
  if (server) await onServer(`CREATE DATABASE ${database}`);
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
  if (server) await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

describe.runIf(url)("x-agent enqueue prints the task's id", { timeout: 120_000 }, () => {
  it("alone on stdout for a person, the note on stderr; in a queued event with --json", async () => {
    const human = await runCli(["enqueue", "Say hello.", "--store", url!, "--owner", owner], { cwd });
    expect(human.code).toBe(0);
    const id = human.stdout.trimEnd();
    expect(id).toMatch(UUID);
    expect(human.stdout).toBe(`${id}\n`);
    expect(human.stderr).toContain(`queued task ${id} (owner ${owner})`);

    const json = await runCli(["enqueue", "Say hello.", "--store", url!, "--owner", owner, "--json"], { cwd });
    expect([json.code, json.stderr]).toEqual([0, ""]);
    const [queued] = ofType(parseEvents(json.stdout), "queued");
    expect(queued).toEqual({ type: "queued", id: expect.stringMatching(UUID), owner });
    expect(queued!.id).not.toBe(id);
  });
});
