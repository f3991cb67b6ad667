import { html, raw } from "hono/html";
import type { LiveRun } from "../live-runs";
import { dollars, layout } from "./layout";
import { LIVE_SCRIPT } from "./live-script";

/**
 * A run as it streams: the page reads the run's AI SDK UI message stream (`/runs/:id/events`, SSE) and draws text,
 * tool calls with their results, auto-mode verdicts with reasons, sub-runs as a tree, and the cost as it grows.
 */
export function livePage(run: LiveRun) {
  return layout(
    `Run ${run.runId}`,
    "/runs",
    html`<p class="muted">${run.label} · started ${run.startedAt}</p>
      <p>
        Status: <span class="status" data-testid="status">${run.status}</span> · cost
        <span data-testid="cost">${dollars(run.costMicroUsd)}</span>
      </p>
      ${run.error ? html`<p class="card" data-testid="error">${run.error}</p>` : ""}
      <div id="log" data-testid="log"></div>
      <h3>Sub-runs</h3>
      <ul id="tree" data-testid="tree"></ul>
      <script>
        ${raw(LIVE_SCRIPT)};
        watch(${raw(JSON.stringify(`/runs/${encodeURIComponent(run.runId)}/events`))});
      </script>`,
  );
}
