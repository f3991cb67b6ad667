import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { StrategyStore } from "@x/strategy-store-core";

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/** The strategy store named on the command line could not be opened. */
export class StoreOpenError extends Error {
  readonly code = "store_unavailable";
  constructor(message: string) {
    super(message);
    this.name = "StoreOpenError";
  }
}

/**
 * A `postgres://…` URL opens PostgreSQL; anything else is a SQLite file path (folders are made). Drivers load on
 * first use.
 */
export async function openStrategyStore(target: string): Promise<{ store: StrategyStore; describe: string }> {
  const describe = isPostgresUrl(target) ? `PostgreSQL ${redactUrl(target)}` : `SQLite ${resolve(target)}`;
  try {
    if (isPostgresUrl(target)) {
      const { PostgresStrategyStore } = await import("@x/strategy-store-postgres");
      return { store: await PostgresStrategyStore.open({ connectionString: target }), describe };
    }
    const file = resolve(target);
    await mkdir(dirname(file), { recursive: true });
    const { SqliteStrategyStore } = await import("@x/strategy-store-sqlite");
    return { store: new SqliteStrategyStore({ database: file }), describe };
  } catch (error) {
    throw new StoreOpenError(
      `cannot open the strategy store (${describe}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Opens and closes the store once, so a bad --store fails before any scenario runs. */
export async function checkStrategyStore(target: string): Promise<void> {
  const { store } = await openStrategyStore(target);
  await store.close();
}

/** The URL with its password and any key-like query value hidden, for display. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    // Some gateways take their key in the query string (`?api-key=…`, `?key=…`).
    for (const name of [...parsed.searchParams.keys()])
      if (/key|token|secret|sig|password/i.test(name)) parsed.searchParams.set(name, "***");
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
