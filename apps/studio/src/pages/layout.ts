import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const NAV = [
  ["/inbox", "Inbox"],
  ["/runs", "Runs"],
  ["/strategies", "Strategies"],
  ["/costs", "Costs"],
] as const;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f4}
header{background:#1d1d1f;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#ddd;text-decoration:none}header a.on{color:#fff;font-weight:600}
main{padding:1rem 1.2rem;max-width:1100px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.8rem 1rem;margin:0 0 1rem}
pre{background:#f0f0ee;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:.4rem 0}
pre.diff span{display:block;min-height:1em}pre.diff .add{color:#116329}pre.diff .del{color:#a40e26}
table{border-collapse:collapse;width:100%;background:#fff}
td,th{border-bottom:1px solid #e3e3e3;padding:.35rem .5rem;text-align:left}
.bar{background:#4a7bd0;height:.7rem;display:inline-block;vertical-align:middle}
.muted{color:#666}.status{font-weight:600}button{margin-right:.4rem}
.verdict{border-left:3px solid #c77d00;padding-left:.5rem}.tool{border-left:3px solid #4a7bd0;padding-left:.5rem}
`;

/** The studio's page frame: navigation, the page's title and content. */
export function layout(title: string, active: string, content: Content): Content {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · x-agent studio</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <header>
          <strong>x-agent studio</strong>
          ${NAV.map(([href, name]) => html`<a href="${href}" class="${href === active ? "on" : ""}">${name}</a>`)}
        </header>
        <main>
          <h1>${title}</h1>
          ${content}
        </main>
      </body>
    </html>`;
}

/** Integer micro-dollars as dollars, for display. */
export function dollars(micro: number | undefined): string {
  return micro === undefined ? "—" : `$${(micro / 1e6).toFixed(6)}`;
}
