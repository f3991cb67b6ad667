import { html } from "hono/html";
import type { InboxItem } from "../sources";
import { dollars, layout } from "./layout";

/** A unified diff with its added and removed lines marked (escaped like any text). */
function diffView(diff: string) {
  const kind = (line: string) =>
    line.startsWith("+") && !line.startsWith("+++")
      ? "add"
      : line.startsWith("-") && !line.startsWith("---")
        ? "del"
        : "";
  return html`<pre class="diff" data-testid="diff">
${diff.split("\n").map((line) => html`<span class="${kind(line)}">${line}</span>`)}</pre>`;
}

function item(entry: InboxItem, formKey: string) {
  const path = entry.path.map((step) => `${step.runId} → ${step.toolName} (${step.toolCallId})`);
  return html`<section class="card" data-testid="inbox-item" data-park="${entry.id}">
    <h2><code>${entry.tool}</code> <span class="muted">— ${entry.kind}</span></h2>
    <p class="muted">
      ${entry.label} · run <code>${entry.runId}</code> · parked ${entry.createdAt}
      ${entry.expiresAt ? html` · expires ${entry.expiresAt}` : ""} · spent ${dollars(entry.costMicroUsd)}
    </p>
    ${entry.reason ? html`<p>Reason: ${entry.reason}</p>` : ""}
    <p>
      Runs above it:
      <span data-testid="path">${path.length > 0 ? path.join(" ⟶ ") : "none (the top-level run made this call)"}</span>
    </p>
    <h3>Arguments</h3>
    <pre data-testid="arguments">${JSON.stringify(entry.arguments, null, 2)}</pre>
    ${
      entry.diff !== undefined
        ? html`<h3>Change</h3>
            ${diffView(entry.diff)}`
        : ""
    }
    <form method="post" action="/inbox/${encodeURIComponent(entry.id)}/decide">
      <input type="hidden" name="formKey" value="${formKey}" />
      <input name="reason" placeholder="reason (optional)" maxlength="2000" />
      <button name="decision" value="approve" data-testid="approve">Approve</button>
      <button name="decision" value="deny" data-testid="deny">Deny</button>
    </form>
  </section>`;
}

/** Every parked call, whole, with approve and deny. */
export function inboxPage(items: InboxItem[], formKey: string, failures: string[]) {
  return layout(
    "Approval inbox",
    "/inbox",
    html`${failures.map((failure) => html`<p class="card">A source could not be read: ${failure}</p>`)}
    ${
      items.length === 0
        ? html`<p data-testid="inbox-empty">Nothing waits for a decision.</p>`
        : items.map((entry) => item(entry, formKey))
    }`,
  );
}
