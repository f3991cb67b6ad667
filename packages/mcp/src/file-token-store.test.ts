import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileTokenStore } from "./file-token-store";

const tokens = { access_token: "access-secret-1", token_type: "bearer", issuer: "http://127.0.0.1/" };

describe("createFileTokenStore", () => {
  it("keeps one record per server URL in a file only its owner can read, saves racing in one process", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "mcp-store-")), "nested", "tokens.json");
    const store = createFileTokenStore(path);
    expect(await store.load("http://a/mcp")).toBeUndefined();
    await Promise.all([
      store.save("http://a/mcp", { tokens }),
      store.save("http://b/mcp", { clientInformation: { client_id: "b" } }),
    ]);
    expect(await createFileTokenStore(path).load("http://a/mcp")).toEqual({ tokens });
    expect(await store.load("http://b/mcp")).toEqual({ clientInformation: { client_id: "b" } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("refuses a file it did not write without quoting it (it may hold tokens)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "mcp-store-")), "tokens.json");
    writeFileSync(path, '{"access_token":"leaked-if-quoted"}');
    const error = await createFileTokenStore(path)
      .load("http://a/mcp")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "config_invalid" });
    expect(String(error)).not.toContain("leaked-if-quoted");
    expect(readFileSync(path, "utf8")).toContain("leaked-if-quoted");
  });
});
