// Hangs the statement that would write a run's n-th link holding tool results, for the crash tests'
// child workers: the tool has returned and its result is in the run, but the link (and the
// `tool_result` event riding with it) never reaches the database.
import type pg from "pg";
import { aroundQueries } from "./around-queries";

/** From now on, the n-th link holding a tool result sent on `pool` hangs for good, said on stdout. */
export function holdResultLink(pool: pg.Pool, n: number) {
  let results = 0;
  const held = (config: unknown) => {
    if (typeof config !== "object" || config === null || !("name" in config) || !("values" in config)) return false;
    const link = String(config.name).startsWith("x-queue-turn") && (config.values as unknown[]).find(isLinkText);
    return typeof link === "string" && link.includes('"role":"toolResult"') && ++results === n;
  };
  aroundQueries(pool, (send, args) => {
    if (!held(args[0])) return send(...args);
    process.stdout.write(`hanging at the link of tool result ${n}\n`);
    return new Promise(() => undefined);
  });
}

const isLinkText = (value: unknown) => typeof value === "string" && value.includes('"kind":"x.run_checkpoint_segment"');
