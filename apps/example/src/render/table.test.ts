import { describe, expect, it } from "vitest";
import type { RunSummary } from "./events";
import { formatUsd, summaryTable } from "./table";

const row = (label: string, extra: Partial<RunSummary> = {}): RunSummary => ({
  label,
  status: "completed",
  turns: 3,
  tokens: 1000,
  tokensEstimated: false,
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

  it("shows a run's sub-runs beneath it, marked └, and counts them once: the total sums the parents only", () => {
    const parent = row("p", { tokens: 3000, costMicroUsd: 900, children: [row("write_migration", { tokens: 1200 })] });
    const lines = summaryTable([parent, row("q")]).split("\n");
    expect(lines[3]).toMatch(/^│ p\s+│ completed │\s+3 │\s+3000 │/);
    expect(lines[4]).toMatch(/^│ └ write_migration │ completed │\s+3 │\s+1200 │/);
    expect(lines[5]).toMatch(/^│ q\s+│/);
    expect(lines[7]).toMatch(/^│ total\s+│\s+│\s+6 │\s+4000 │ \$0\.001400 │/);
  });

  it("shows one run without a total", () => {
    expect(summaryTable([row("only")]).split("\n")).toHaveLength(5);
  });

  it("marks estimated token counts with ~ and says what ~ means", () => {
    const lines = summaryTable([row("a", { tokensEstimated: true }), row("b")]).split("\n");
    expect(lines[3]).toContain("│  ~1000 │");
    expect(lines[4]).toContain("│   1000 │");
    expect(lines[6]).toContain("│  ~2000 │");
    expect(lines.at(-1)).toMatch(/^~ estimated: the provider reported no token counts/);
  });

  it("fits the width it is given: short headers first, then one line per run", () => {
    const rows = [row("auto-mode", { tokensEstimated: true }), row("approval (resumed)")];
    const full = summaryTable(rows).split("\n");
    expect(full[0]!.length).toBeGreaterThan(80);
    const short = summaryTable(rows, 92).split("\n");
    expect(short[1]).toContain("│ teacher │ used │ stored │");
    expect(Math.max(...short.map((l) => l.length))).toBeLessThanOrEqual(92);
    const narrow = summaryTable(rows, 40).split("\n");
    expect(narrow[0]).toMatch(/^auto-mode: completed · 3 turns · ~1000 /);
    expect(narrow).toHaveLength(4);
    expect(Math.max(...narrow.map((l) => l.length))).toBeLessThanOrEqual(40);
  });

  it("formats micro-dollars as dollars", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(1)).toBe("$0.000001");
    expect(formatUsd(123_456)).toBe("$0.1235");
  });
});
