// Scripted reviewers with stated rates: a reviewer catches a planted bug of its lens's kind with
// probability `recall.lens`, any other with `recall.other`, and reports `falsePositives` wrong
// findings per snippet on average. As a critic it confirms a real bug with `confirmReal` and
// disputes a wrong finding with `disputeWrong`. Every draw is a hash of (reviewer, file, line,
// purpose), so a run is reproducible and a reviewer answers the same question the same way.
import { fauxText, type FauxRequestContext, type FauxResponse } from "@x/brain-faux";
import type { BugKind, Snippet } from "./snippets";

export interface ReviewerProfile {
  name: string;
  lens: BugKind;
  recall: { lens: number; other: number };
  falsePositives: number;
  confirmReal: number;
  disputeWrong: number;
}

export const PROFILES: readonly ReviewerProfile[] = [
  {
    name: "correctness",
    lens: "correctness",
    recall: { lens: 0.7, other: 0.35 },
    falsePositives: 0.6,
    confirmReal: 0.8,
    disputeWrong: 0.7,
  },
  {
    name: "security",
    lens: "security",
    recall: { lens: 0.7, other: 0.35 },
    falsePositives: 0.6,
    confirmReal: 0.8,
    disputeWrong: 0.7,
  },
  {
    name: "performance",
    lens: "performance",
    recall: { lens: 0.7, other: 0.35 },
    falsePositives: 0.6,
    confirmReal: 0.8,
    disputeWrong: 0.7,
  },
];

/** A uniform draw in [0, 1) from a string: FNV-1a, then a mixing step. */
export function draw(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

const near = (snippet: Snippet, line: number) => snippet.bugs.find((b) => Math.abs(b.line - line) <= 1);

function requestText(ctx: FauxRequestContext): string {
  return ctx.context.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

function review(profile: ReviewerProfile, snippet: Snippet): FauxResponse {
  const findings = [];
  for (const bug of snippet.bugs) {
    const p = bug.kind === profile.lens ? profile.recall.lens : profile.recall.other;
    if (draw(`${profile.name}|${snippet.file}|${bug.line}|find`) >= p) continue;
    const confidence = 0.55 + 0.4 * draw(`${profile.name}|${snippet.file}|${bug.line}|conf`);
    findings.push({
      location: { file: snippet.file, line: bug.line },
      claim: bug.what,
      evidence: `line ${bug.line}`,
      severity: bug.kind === "security" ? "high" : "medium",
      confidence: Number(confidence.toFixed(2)),
    });
  }
  const lines = snippet.code.split("\n").length;
  const wrong =
    Math.floor(profile.falsePositives) +
    (draw(`${profile.name}|${snippet.file}|fp`) < profile.falsePositives % 1 ? 1 : 0);
  for (let k = 0; k < wrong; k++) {
    const line = 1 + Math.floor(draw(`${profile.name}|${snippet.file}|fp${k}|line`) * lines);
    if (near(snippet, line)) continue;
    findings.push({
      location: { file: snippet.file, line },
      claim: `suspicious ${profile.lens} issue in this statement (${profile.name} #${k})`,
      evidence: `line ${line} looks wrong to the ${profile.name} reviewer`,
      severity: "low",
      confidence: Number((0.35 + 0.45 * draw(`${profile.name}|${snippet.file}|fp${k}|conf`)).toFixed(2)),
    });
  }
  return fauxText(JSON.stringify({ findings }));
}

function critique(profile: ReviewerProfile, snippet: Snippet, text: string): FauxResponse {
  const shown = [...text.matchAll(/^(F\d+)\. (\S+):(\d+) — /gm)].map((m) => ({ id: m[1]!, line: Number(m[3]) }));
  const verdicts = shown.map(({ id, line }) => {
    const real = near(snippet, line) !== undefined;
    const roll = draw(`${profile.name}|${snippet.file}|${line}|critique`);
    const agree = real ? roll < profile.confirmReal : roll >= profile.disputeWrong;
    return {
      id,
      verdict: agree ? "confirm" : "dispute",
      reason: agree ? "I can see it in the code" : "the code does not do that",
    };
  });
  return fauxText(JSON.stringify({ verdicts }));
}

/** A faux responder for one profile: finds the snippet by the file path in the request. */
export function scriptedReviewer(profile: ReviewerProfile, snippets: readonly Snippet[]) {
  return (ctx: FauxRequestContext): FauxResponse => {
    const text = requestText(ctx);
    const file = /<file path="([^"]+)">/.exec(text)?.[1];
    const snippet = snippets.find((s) => s.file === file);
    if (!snippet) return fauxText('{"findings": []}');
    return text.includes('"verdicts"') ? critique(profile, snippet, text) : review(profile, snippet);
  };
}
