import type { RunSummary } from "./events";

export function formatUsd(micro: number): string {
  const usd = micro / 1_000_000;
  if (micro === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(4)}`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** A token count, marked `~` when part of it was estimated rather than reported by the provider. */
export function formatTokens(tokens: number, estimated: boolean): string {
  return estimated ? `~${tokens}` : String(tokens);
}

const HEADERS = ["run", "status", "turns", "tokens", "cost", "teacher share", "strategies used", "stored"] as const;
/** The same columns, named for a narrow terminal. */
const SHORT_HEADERS = ["run", "status", "turns", "tokens", "cost", "teacher", "used", "stored"] as const;
/** Numeric columns align right. */
const RIGHT = new Set([2, 3, 4, 5, 6, 7]);
const ESTIMATE_NOTE = "~ estimated: the provider reported no token counts, so they were counted as characters / 4";

/**
 * The closing summary, one row per run (its sub-runs beneath it, marked `└`) plus a total when there
 * are several runs. A sub-run's spend is already in its parent's row, so the total counts parents
 * only. It fits in `width` columns when given (a terminal's): box-drawn with full headers, else with
 * short ones, else one line per run.
 */
export function summaryTable(rows: readonly RunSummary[], width = Number.POSITIVE_INFINITY): string {
  const body = rows.flatMap((row) => [
    cells(row),
    ...(row.children ?? []).map((child) => cells({ ...child, label: `└ ${child.label}` })),
  ]);
  if (rows.length > 1) body.push(cells(totalOf(rows)));
  const note = rows.some((r) => r.tokensEstimated) ? [fit(ESTIMATE_NOTE, width)] : [];
  for (const headers of [HEADERS, SHORT_HEADERS]) {
    const table = boxTable(headers, body, { right: RIGHT, totalRow: rows.length > 1 });
    if (table[0]!.length <= width) return [...table, ...note].join("\n");
  }
  const lines = body.map((values) =>
    fit(
      `${values[0]}: ${values[1] || "—"} · ${values[2]} turns · ${values[3]} tokens ` +
        `· ${values[4]} · teacher ${values[5]} · ${values[6]} used · ${values[7]} stored`,
      width,
    ),
  );
  return [...lines, ...note].join("\n");
}

function totalOf(rows: readonly RunSummary[]): RunSummary {
  const tokens = rows.reduce((n, r) => n + r.tokens, 0);
  const teacherTokens = rows.reduce((n, r) => n + r.teacherShare * r.tokens, 0);
  return {
    label: "total",
    status: "",
    turns: rows.reduce((n, r) => n + r.turns, 0),
    tokens,
    tokensEstimated: rows.some((r) => r.tokensEstimated),
    costMicroUsd: rows.reduce((n, r) => n + r.costMicroUsd, 0),
    teacherShare: tokens === 0 ? 0 : teacherTokens / tokens,
    strategiesUsed: rows.reduce((n, r) => n + r.strategiesUsed, 0),
    strategiesStored: rows.reduce((n, r) => n + r.strategiesStored, 0),
  };
}

/**
 * A box-drawn table, one line per array entry: the columns in `right` align right, and with
 * `totalRow` the last body row is ruled off as a total.
 */
export function boxTable(
  headers: readonly string[],
  body: readonly string[][],
  options: { right: ReadonlySet<number>; totalRow?: boolean },
): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`;
  const row = (values: readonly string[]) =>
    `│${values.map((v, i) => ` ${options.right.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)} `).join("│")}│`;
  const out = [line("┌", "┬", "┐"), row(headers), line("├", "┼", "┤")];
  body.forEach((values, i) => {
    if (options.totalRow && i === body.length - 1) out.push(line("├", "┼", "┤"));
    out.push(row(values));
  });
  out.push(line("└", "┴", "┘"));
  return out;
}

export function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(1, width - 1))}…`;
}

function cells(r: RunSummary): string[] {
  return [
    r.label,
    r.status,
    String(r.turns),
    formatTokens(r.tokens, r.tokensEstimated),
    formatUsd(r.costMicroUsd),
    formatPercent(r.teacherShare),
    String(r.strategiesUsed),
    String(r.strategiesStored),
  ];
}
