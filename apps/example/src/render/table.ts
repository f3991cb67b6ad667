import type { RunSummary } from "./events";

export function formatUsd(micro: number): string {
  const usd = micro / 1_000_000;
  if (micro === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(4)}`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

const HEADERS = ["run", "status", "turns", "tokens", "cost", "teacher share", "strategies used", "stored"] as const;
/** Numeric columns align right. */
const RIGHT = new Set([2, 3, 4, 5, 6, 7]);

/** The closing summary as a plain-text table (box-drawing borders), one row per run plus a total when there are several. */
export function summaryTable(rows: readonly RunSummary[]): string {
  const body = rows.map(cells);
  if (rows.length > 1) {
    const tokens = rows.reduce((n, r) => n + r.tokens, 0);
    const teacherTokens = rows.reduce((n, r) => n + r.teacherShare * r.tokens, 0);
    body.push(
      cells({
        label: "total",
        status: "",
        turns: rows.reduce((n, r) => n + r.turns, 0),
        tokens,
        costMicroUsd: rows.reduce((n, r) => n + r.costMicroUsd, 0),
        teacherShare: tokens === 0 ? 0 : teacherTokens / tokens,
        strategiesUsed: rows.reduce((n, r) => n + r.strategiesUsed, 0),
        strategiesStored: rows.reduce((n, r) => n + r.strategiesStored, 0),
      }),
    );
  }
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`;
  const row = (values: readonly string[]) =>
    `│${values.map((v, i) => ` ${RIGHT.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)} `).join("│")}│`;
  const out = [line("┌", "┬", "┐"), row(HEADERS), line("├", "┼", "┤")];
  body.forEach((values, i) => {
    if (rows.length > 1 && i === body.length - 1) out.push(line("├", "┼", "┤"));
    out.push(row(values));
  });
  out.push(line("└", "┴", "┘"));
  return out.join("\n");
}

function cells(r: RunSummary): string[] {
  return [
    r.label,
    r.status,
    String(r.turns),
    String(r.tokens),
    formatUsd(r.costMicroUsd),
    formatPercent(r.teacherShare),
    String(r.strategiesUsed),
    String(r.strategiesStored),
  ];
}
