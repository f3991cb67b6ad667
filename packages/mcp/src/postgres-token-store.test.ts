import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTokenStore } from "./postgres-token-store";

// A real PostgreSQL server: .ci/run starts one and sets PG_URL.
const url = process.env.PG_URL;
const table = `mcp_oauth_test_${process.pid}`;
let pool: pg.Pool;

describe.skipIf(url === undefined)("createPostgresTokenStore on a real PostgreSQL (PG_URL)", () => {
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
  });

  it("creates its table, and two workers on one database share one record per server URL", async () => {
    const first = createPostgresTokenStore(pool, { table });
    const second = createPostgresTokenStore(pool, { table });
    expect(await first.load("http://a/mcp")).toBeUndefined();
    const tokens = { access_token: "access-secret-1", token_type: "bearer", issuer: "http://127.0.0.1/" };
    await first.save("http://a/mcp", { tokens, clientInformation: { client_id: "c" } });
    expect(await second.load("http://a/mcp")).toEqual({ tokens, clientInformation: { client_id: "c" } });
    await second.save("http://a/mcp", { clientInformation: { client_id: "c" } });
    expect(await first.load("http://a/mcp")).toEqual({ clientInformation: { client_id: "c" } });
    expect(await first.load("http://b/mcp")).toBeUndefined();
  });

  it("refuses a row it did not write without quoting it, and a table name that is not plain", async () => {
    const store = createPostgresTokenStore(pool, { table });
    await store.load("http://c/mcp");
    await pool.query(`INSERT INTO ${table} (server_url, record) VALUES ($1, $2)`, [
      "http://c/mcp",
      JSON.stringify({ leaked: "if-quoted-secret" }),
    ]);
    const error = await store.load("http://c/mcp").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "config_invalid" });
    expect(String(error)).not.toContain("if-quoted-secret");
    expect(() => createPostgresTokenStore(pool, { table: "x; DROP TABLE y" })).toThrow(/plain table name/);
  });
});
