import { StrategyStoreError } from "./errors";
import { RecordIdSchema } from "./record";

// Opaque to callers so the paging key can change without breaking them.
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: lastId }), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      (parsed as { v?: unknown }).v === 1 &&
      // A forged `after` must meet the id rules, or it reaches the database unchecked.
      RecordIdSchema.safeParse((parsed as { after?: unknown }).after).success
    ) {
      return (parsed as { after: string }).after;
    }
  } catch {
    // fall through to the typed error
  }
  throw new StrategyStoreError("invalid_input", "invalid list: cursor: not a cursor this store issued", {
    fields: ["cursor"],
  });
}
