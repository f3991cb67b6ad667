// pnpm bench: single reviewer vs council on the labelled snippets. Scripted reviewers by default
// (rates in scripted-reviewers.ts, and as measured on this set in the heading); `--base-url <url>
// --model <id> [--api-key <key>]` runs the same setups against an OpenAI-compatible endpoint and
// prints the same table. `--snippets <n>` takes the first n snippets.
import { parseArgs } from "node:util";
import { measure, SETUPS, table, type Tally } from "./bench-run";
import { endpointCouncil, scriptedCouncil } from "./council-setup";
import { describeRates } from "./scripted-reviewers";
import { SNIPPETS } from "./snippets";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    model: { type: "string" },
    "api-key": { type: "string" },
    snippets: { type: "string" },
  },
});

const count = values.snippets ? Number(values.snippets) : SNIPPETS.length;
if (!Number.isInteger(count) || count < 1)
  throw new Error(`--snippets must be a whole number ≥ 1, got ${values.snippets}`);
if (Boolean(values["base-url"]) !== Boolean(values.model)) throw new Error("--base-url and --model go together");
const snippets = SNIPPETS.slice(0, count);
const council =
  values["base-url"] && values.model
    ? endpointCouncil({
        baseUrl: values["base-url"],
        model: values.model,
        ...(values["api-key"] ? { apiKey: values["api-key"] } : {}),
      })
    : scriptedCouncil(snippets);
const planted = snippets.reduce((n, s) => n + s.bugs.length, 0);
console.log(`council bench — ${snippets.length} snippets, ${planted} planted bugs; ${council.source}`);
if (!values["base-url"]) console.log(describeRates(snippets));
const rows: Array<[string, Tally]> = [];
for (const setup of SETUPS) rows.push([setup.label, await measure(council.runner, council.reviewers, setup, snippets)]);
console.log(table(rows));
