// The bench against an OpenAI-compatible endpoint: a loopback server speaking the Chat Completions
// wire answers as a reviewer who reports exactly the planted bugs of its lens and confirms what it
// is shown, so every number of the table is known in advance.
import { startOpenAIMockServer, type OpenAIMockServer } from "@x/brain-openai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measure, quality, SETUPS, table, type Tally } from "../bench/bench-run";
import { endpointCouncil } from "../bench/council-setup";
import { SNIPPETS } from "../bench/snippets";

const snippets = SNIPPETS.slice(0, 6);
let server: OpenAIMockServer;

/** The request's text: every message's string content. */
function asked(body: unknown): string {
  const { messages = [] } = body as { messages?: Array<{ content?: unknown }> };
  return messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");
}

function answer(text: string): string {
  if (text.includes('"verdicts"')) {
    const ids = [...text.matchAll(/^(F\d+)\. /gm)].map((m) => m[1]!);
    return JSON.stringify({ verdicts: ids.map((id) => ({ id, verdict: "confirm", reason: "reproduced" })) });
  }
  const file = /<file path="([^"]+)">/.exec(text)?.[1];
  const lens = /Your lens: (\w+)\./.exec(text)?.[1];
  const bugs = snippets.find((s) => s.file === file)?.bugs.filter((bug) => bug.kind === lens) ?? [];
  const findings = bugs.map((bug) => ({
    location: { file, line: bug.line },
    claim: bug.what,
    evidence: `line ${bug.line}`,
    severity: "high",
    confidence: 0.9,
  }));
  return JSON.stringify({ findings });
}

beforeAll(async () => {
  server = await startOpenAIMockServer((request) => ({ text: answer(asked(request.body)) }));
});
afterAll(() => server.close());

describe("the council bench against an OpenAI-compatible endpoint", () => {
  it("runs every setup over the wire and prints the same table, with the scores the answers imply", async () => {
    const council = endpointCouncil({ baseUrl: server.baseUrl, model: "reviewer-8b" });
    const rows: Array<[string, Tally]> = [];
    for (const setup of SETUPS)
      rows.push([setup.label, await measure(council.runner, council.reviewers, setup, snippets)]);
    const planted = snippets.flatMap((s) => s.bugs);
    const correctness = planted.filter((bug) => bug.kind === "correctness").length;
    const [single, union, critiqued] = rows.map(([, tally]) => tally);
    // The single reviewer has the correctness lens and reports only those bugs, all of them right.
    expect(quality(single!)).toMatchObject({ recall: correctness / planted.length, precision: 1 });
    // Three lenses between them cover every planted bug; confirmations keep all of them above 60.
    expect(quality(union!)).toMatchObject({ recall: 1, precision: 1 });
    expect(quality(critiqued!)).toMatchObject({ recall: 1, precision: 1 });
    // Every model call went over the wire, billed from the usage the server reported.
    const calls = rows.reduce((n, [, tally]) => n + tally.modelCalls, 0);
    expect(server.bodies()).toHaveLength(calls);
    expect(server.bodies().every((body) => body.model === "reviewer-8b")).toBe(true);
    expect(critiqued!.tokens).toBeGreaterThan(union!.tokens);
    expect(critiqued!.costMicroUsd).toBeGreaterThan(0);
    const printed = table(rows);
    for (const setup of SETUPS) expect(printed).toContain(setup.label);
    expect(printed).toContain("1.000");
  });
});
