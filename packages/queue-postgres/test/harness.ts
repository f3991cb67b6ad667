// One PostgreSQL schema per test file (its own tables and pg-boss's), the effects table the fixture's
// tools write to, and the waits and child processes the tests share.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { QueuedTask, TaskQueue, TaskState } from "../src/index";
import { createEffectsTable, openQueue } from "./fixture";
import type { ChildSettings } from "./worker-child";

const here = dirname(fileURLToPath(import.meta.url));
export const PG_URL = process.env.PG_URL;

export interface Harness {
  readonly schema: string;
  readonly admin: pg.Pool;
  readonly queue: TaskQueue;
  /** Effects the tools recorded for one task, in order. */
  effects(taskId: string): Promise<string[]>;
  /** The task once it is in one of `states`. */
  settled(taskId: string, owner?: string, states?: readonly TaskState[]): Promise<QueuedTask>;
  /**
   * A worker in a child process (`script`, default `worker-child.ts`) that hangs at a tool call;
   * `hanging` resolves once it hangs there.
   */
  childWorker(
    settings: Omit<ChildSettings, "url" | "schema">,
    script?: string,
  ): { child: ChildProcess; hanging: Promise<void> };
}

export const SETTLED: readonly TaskState[] = ["completed", "failed", "parked", "dead_letter", "unknown_outcome"];

export async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Registers beforeAll/afterAll for a schema named after the file and a random suffix. */
export function useHarness(name: string): Harness {
  const schema = `x_queue_${name}_${randomUUID().slice(0, 8)}`;
  let admin: pg.Pool | undefined;
  let queue: TaskQueue | undefined;
  const children = new Set<ChildProcess>();
  beforeAll(async () => {
    if (!PG_URL) return;
    admin = new pg.Pool({ connectionString: PG_URL, max: 4 });
    queue = openQueue(PG_URL, schema);
    await queue.start();
    await createEffectsTable(admin, schema);
  });
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await queue?.stop();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin?.end();
  });
  const harness: Harness = {
    schema,
    get admin() {
      return admin!;
    },
    get queue() {
      return queue!;
    },
    async effects(taskId) {
      const found = await admin!.query<{ name: string }>(
        `SELECT name FROM ${schema}.effects WHERE idempotency_key LIKE $1 ORDER BY at`,
        [`${taskId}:%`],
      );
      return found.rows.map((row) => row.name);
    },
    settled: (taskId, owner = "acme", states = SETTLED) =>
      until(async () => {
        const task = await queue!.getTask(taskId, owner);
        return states.includes(task.status) ? task : undefined;
      }),
    childWorker(settings, script = "worker-child.ts") {
      const child = spawn(
        process.execPath,
        [
          "--conditions=@x/source",
          "--import",
          "tsx",
          join(here, script),
          JSON.stringify({ ...settings, url: PG_URL, schema }),
        ],
        { cwd: join(here, ".."), stdio: ["ignore", "pipe", "inherit"] },
      );
      children.add(child);
      child.on("exit", () => children.delete(child));
      const hanging = new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("hanging") && resolve());
        child.on("exit", (code) => reject(new Error(`child exited (${code}) before it hung`)));
      });
      return { child, hanging };
    },
  };
  return harness;
}
