import { html } from "hono/html";
import type { StrategyHit, StrategyRecord } from "@x/strategy-store-core";
import { layout } from "./layout";

function row(record: StrategyRecord, score: number | undefined) {
  const href = `/strategies/${encodeURIComponent(record.scope)}/${encodeURIComponent(record.id)}`;
  return html`<tr data-testid="strategy-row">
    <td><a href="${href}">${record.problem}</a></td>
    <td>${record.strategy}</td>
    <td>${record.confidence}</td>
    <td>${record.successes}/${record.uses}</td>
    <td>${score === undefined ? "—" : score.toFixed(3)}</td>
  </tr>`;
}

/** Search one scope's strategies (an empty query lists them); nothing of another scope is ever read. */
export function strategiesPage(input: {
  scope: string;
  query: string;
  hits: StrategyHit[] | undefined;
  records: StrategyRecord[] | undefined;
  scopes: readonly string[];
  error?: string;
  available: boolean;
}) {
  const { scope, query, hits, records, scopes } = input;
  const form = html`<form method="get" action="/strategies" class="card">
    <label>Scope <input name="scope" value="${scope}" list="scopes" data-testid="scope" required /></label>
    <datalist id="scopes">${scopes.map((s) => html`<option value="${s}"></option>`)}</datalist>
    <label>Search <input name="q" value="${query}" data-testid="query" /></label>
    <button data-testid="search">Search</button>
  </form>`;
  if (!input.available)
    return layout("Strategy memory", "/strategies", html`<p>No strategy store was given to this studio.</p>`);
  const table =
    hits === undefined && records === undefined
      ? html`<p class="muted">Pick a scope: each scope is a wall, searched on its own.</p>`
      : html`<table data-testid="strategies">
          <tr>
            <th>Problem</th>
            <th>Strategy</th>
            <th>Confidence</th>
            <th>Worked</th>
            <th>Score</th>
          </tr>
          ${hits?.map((hit) => row(hit.record, hit.score))} ${records?.map((record) => row(record, undefined))}
        </table>`;
  return layout(
    "Strategy memory",
    "/strategies",
    html`${form}${input.error ? html`<p class="card">${input.error}</p>` : ""}${table}`,
  );
}

/** One strategy, whole, with delete. */
export function strategyPage(record: StrategyRecord, formKey: string) {
  const { embedding: _embedding, ...shown } = record;
  return layout(
    "Strategy",
    "/strategies",
    html`<pre data-testid="strategy">${JSON.stringify(shown, null, 2)}</pre>
      <form
        method="post"
        action="/strategies/${encodeURIComponent(record.scope)}/${encodeURIComponent(record.id)}/delete"
      >
        <input type="hidden" name="formKey" value="${formKey}" />
        <button data-testid="delete">Delete</button>
      </form>`,
  );
}
