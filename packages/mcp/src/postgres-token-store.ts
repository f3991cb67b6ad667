import { z } from "zod/v4";
import { McpError } from "./errors";
import { McpAuthRecordSchema, type McpAuthRecord, type McpTokenStore } from "./token-store";

/** What the store needs of a PostgreSQL client: a `pg` Pool or Client fits, with no dependency on `pg` here. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const RowSchema = z.object({ record: McpAuthRecordSchema });

/**
 * OAuth state in a PostgreSQL table (`mcp_oauth_records` unless told otherwise; created on first
 * use), one row per server URL, so every worker sharing the database shares one sign-in and one
 * refresh token. A row holds secrets: grant the table to the workers that need it, no one else.
 */
export function createPostgresTokenStore(db: PostgresQueryable, options: { table?: string } = {}): McpTokenStore {
  const table = options.table ?? "mcp_oauth_records";
  if (!TABLE_NAME.test(table)) throw new McpError("config_invalid", `"${table}" is not a plain table name`);
  let created: Promise<unknown> | undefined;
  const ready = () =>
    (created ??= db
      .query(
        `CREATE TABLE IF NOT EXISTS ${table} (server_url text PRIMARY KEY, record jsonb NOT NULL, ` +
          "updated_at timestamptz NOT NULL DEFAULT now())",
      )
      .catch((error: unknown) => {
        created = undefined;
        throw error;
      }));
  return {
    async load(serverUrl) {
      await ready();
      const { rows } = await db.query(`SELECT record FROM ${table} WHERE server_url = $1`, [serverUrl]);
      if (rows.length === 0) return undefined;
      const parsed = RowSchema.safeParse(rows[0]);
      // The row's content is never quoted back: it holds tokens.
      if (!parsed.success)
        throw new McpError("config_invalid", `the ${table} row for ${serverUrl} is not one this version wrote`);
      return parsed.data.record;
    },
    async save(serverUrl, record: McpAuthRecord) {
      await ready();
      await db.query(
        `INSERT INTO ${table} (server_url, record) VALUES ($1, $2) ` +
          "ON CONFLICT (server_url) DO UPDATE SET record = EXCLUDED.record, updated_at = now()",
        [serverUrl, JSON.stringify(McpAuthRecordSchema.parse(record))],
      );
    },
  };
}
