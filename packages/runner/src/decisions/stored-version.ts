import { ParkedRunError } from "../vocabulary/parked-run-error";

/**
 * Screens the format version a stored park or checkpoint states, before its schema is applied.
 * Approvals wait for days, so a host may upgrade `@x/runner` while one waits, or run two versions
 * side by side: a value this runner cannot read must say so by name — both versions, and what to
 * do — never as a schema mismatch. Every version up to `newest` is read (v1 is the only one
 * released so far; each later one keeps its predecessors' fixtures in `test/fixtures`, read back by
 * `stored-version.test.ts`). A missing or malformed version is left to the schema to report.
 */
export function refuseNewerVersion(value: unknown, subject: string, newest: number): void {
  const version = typeof value === "object" && value !== null ? (value as { version?: unknown }).version : undefined;
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version <= newest) return;
  throw new ParkedRunError(
    "version_unsupported",
    `${subject} is format v${version}, written by a newer @x/runner; this one reads v1 to v${newest}. ` +
      "Resume it where that newer version runs, or upgrade this host; nothing was claimed or run",
    { version, newest },
  );
}
