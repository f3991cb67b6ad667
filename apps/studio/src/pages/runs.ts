import { html } from "hono/html";
import type { RunSummary } from "../sources";
import { dollars, layout } from "./layout";

/** Every run and task the sources list, newest first; the studio's own runs link to their live view. */
export function runsPage(runs: RunSummary[], failures: string[]) {
  const sorted = [...runs].sort((a, b) => b.at.localeCompare(a.at));
  return layout(
    "Runs",
    "/runs",
    html`${failures.map((failure) => html`<p class="card">A source could not be read: ${failure}</p>`)}
      <table data-testid="runs">
        <tr>
          <th>When</th>
          <th>Run</th>
          <th>What</th>
          <th>Status</th>
          <th>Source</th>
          <th>Tokens</th>
          <th>Cost</th>
        </tr>
        ${sorted.map(
          (run) =>
            html`<tr data-testid="run-row">
              <td>${run.at}</td>
              <td>
                ${
                  run.source === "studio"
                    ? html`<a href="/runs/${encodeURIComponent(run.id)}/live"><code>${run.id}</code></a>`
                    : html`<code>${run.id}</code>`
                }
              </td>
              <td>${run.label}</td>
              <td class="status">${run.status}</td>
              <td>${run.source}</td>
              <td>${run.tokens ?? "—"}</td>
              <td>${dollars(run.costMicroUsd)}</td>
            </tr>`,
        )}
      </table>`,
  );
}
