import { html } from "hono/html";
import type { RunSummary } from "../sources";
import { dollars, layout } from "./layout";

function bars(rows: { label: string; micro: number }[], testid: string) {
  const top = Math.max(1, ...rows.map((r) => r.micro));
  return html`<table data-testid="${testid}">
    ${rows.map(
      (r) =>
        html`<tr>
          <td>${r.label}</td>
          <td style="width:60%"><span class="bar" style="width:${((100 * r.micro) / top).toFixed(1)}%"></span></td>
          <td>${dollars(r.micro)}</td>
        </tr>`,
    )}
  </table>`;
}

/** Spend per run and per day, as bars. */
export function costsPage(runs: RunSummary[]) {
  const priced = runs.filter((run) => run.costMicroUsd !== undefined);
  const byDay = new Map<string, number>();
  for (const run of priced) byDay.set(run.at.slice(0, 10), (byDay.get(run.at.slice(0, 10)) ?? 0) + run.costMicroUsd!);
  const days = [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([label, micro]) => ({ label, micro }));
  const perRun = priced
    .sort((a, b) => b.at.localeCompare(a.at))
    .map((run) => ({ label: `${run.label} (${run.id.slice(0, 8)})`, micro: run.costMicroUsd! }));
  const total = priced.reduce((sum, run) => sum + run.costMicroUsd!, 0);
  return layout(
    "Costs",
    "/costs",
    html`<p>Total: <strong data-testid="total">${dollars(total)}</strong> over ${priced.length} runs</p>
      <h2>Per day</h2>
      ${bars(days, "per-day")}
      <h2>Per run</h2>
      ${bars(perRun, "per-run")}`,
  );
}
