// The runner README's RunEvent table is generated from the type (scripts/run-events-table.mjs): this fails
// when a variant, a field or a variant's doc line changes without `node scripts/run-events-table.mjs --write`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { README_FILE, runEventRows, runEventsTable, withTable } from "../../../../scripts/run-events-table.mjs";
import type { RunEvent } from "./events";

const rows = runEventRows();

describe("the runner README's RunEvent table", () => {
  it("is the one the type generates today", () => {
    const readme = readFileSync(README_FILE, "utf8");
    expect(readme).toContain(runEventsTable());
  });

  it("has a row, with a doc line, for every variant of RunEvent", () => {
    // Every `type` the union has, spelled so the compiler checks the list is complete and exact.
    const all: Record<RunEvent["type"], true> = {
      run_start: true,
      turn_start: true,
      text_delta: true,
      thinking_delta: true,
      toolcall_delta: true,
      turn_end: true,
      retry: true,
      fallback: true,
      tool_call: true,
      verdict: true,
      approval: true,
      tool_progress: true,
      tool_result: true,
      notice: true,
      compaction: true,
      parked: true,
      sub_run: true,
      run_end: true,
    };
    expect(rows.map((row) => row.type).sort()).toEqual(Object.keys(all).sort());
    for (const row of rows) expect(row.doc, row.type).not.toBe("");
    expect(rows.find((row) => row.type === "retry")?.fields).toEqual([
      "model: string",
      "attempt: number",
      "delayMs: number",
      "errorKind?: ErrorKind",
    ]);
  });

  it("is stale once a variant changes (the check can fail)", () => {
    const source = readFileSync(new URL("./events.ts", import.meta.url), "utf8").replace(
      'type: "fallback"; from: string;',
      'type: "fallback"; from: string; reason: string;',
    );
    const readme = readFileSync(README_FILE, "utf8");
    const changed = runEventsTable(runEventRows(source));
    expect(changed).toContain("`reason: string`");
    expect(withTable(readme, changed)).not.toBe(readme);
  });
});
