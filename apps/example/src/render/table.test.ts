import { describe, expect, it } from "vitest";
import type { RunSummary } from "./events";
import { formatUsd, summaryTable } from "./table";

const row = (label: string, extra: Partial<RunSummary> = {}): RunSummary => ({
  label,
  status: "completed",
  turns: 3,
  tokens: 1000,
  costMicroUsd: 500,
  teacherShare: 0,
  strategiesUsed: 0,
  strategiesStored: 0,
  ...extra,
});

describe("summaryTable", () => {
  it("draws one row per run, and a total weighted by tokens when there are several", () => {
    const table = summaryTable([
      row("a", { teacherShare: 0.5, strategiesStored: 1 }),
      row("b", { tokens: 3000, strategiesUsed: 1 }),
    ]);
    const lines = table.split("\n");
    expect(lines[1]).toBe(
      "│ run   │ status    │ turns │ tokens │      cost │ teacher share │ strategies used │ stored │",
    );
    expect(lines[3]).toBe(
      "│ a     │ completed │     3 │   1000 │ $0.000500 │           50% │               0 │      1 │",
    );
    expect(lines[6]).toBe(
      "│ total │           │     6 │   4000 │ $0.001000 │           13% │               1 │      1 │",
    );
    expect(lines).toHaveLength(8);
  });

  it("shows one run without a total", () => {
    expect(summaryTable([row("only")]).split("\n")).toHaveLength(5);
  });

  it("formats micro-dollars as dollars", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(1)).toBe("$0.000001");
    expect(formatUsd(123_456)).toBe("$0.1235");
  });
});
