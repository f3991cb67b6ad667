// Scripted reviewers with stated rates: a reviewer catches a planted bug of its lens's kind with
// probability `recall.lens`, any other with `recall.other`, and reports `falsePositives` wrong
// findings per snippet on average. As a critic it confirms a real bug with `confirmReal` and
// disputes a wrong finding with `disputeWrong`. Every draw is a hash of (reviewer, file, line,
// purpose), so a run is reproducible and a reviewer answers the same question the same way.
import { fauxText, type FauxRequestContext, type FauxResponse } from "@x/brain-faux";
import type { Finding } from "../src/index";
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
    falsePositives: 0.8,
    confirmReal: 0.8,
    disputeWrong: 0.7,
  },
  {
    name: "security",
    lens: "security",
    recall: { lens: 0.7, other: 0.35 },
    falsePositives: 0.8,
    confirmReal: 0.8,
    disputeWrong: 0.7,
  },
  {
    name: "performance",
    lens: "performance",
    recall: { lens: 0.7, other: 0.35 },
    falsePositives: 0.8,
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

/**
 * The lines where a wrong finding is wrong: not within one line of a planted bug (the bench would count it as a catch).
 */
function bugFreeLines(snippet: Snippet): number[] {
  const count = snippet.code.split("\n").length;
  return Array.from({ length: count }, (_, i) => i + 1).filter((line) => !near(snippet, line));
}

/** What one reviewer reports on one snippet: the planted bugs it catches, then its wrong findings. */
export function reviewFindings(profile: ReviewerProfile, snippet: Snippet): Finding[] {
  const findings: Finding[] = [];
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
  const free = bugFreeLines(snippet);
  const wrong =
    Math.floor(profile.falsePositives) +
    (draw(`${profile.name}|${snippet.file}|fp`) < profile.falsePositives % 1 ? 1 : 0);
  // A snippet whose every line is next to a planted bug gets no wrong finding: describeRates reports the rate this
  // leaves.
  for (let k = 0; k < wrong && free.length > 0; k++) {
    const line = free[Math.floor(draw(`${profile.name}|${snippet.file}|fp${k}|line`) * free.length)]!;
    findings.push({
      location: { file: snippet.file, line },
      claim: `suspicious ${profile.lens} issue in this statement (${profile.name} #${k})`,
      evidence: `line ${line} looks wrong to the ${profile.name} reviewer`,
      severity: "low",
      confidence: Number((0.35 + 0.45 * draw(`${profile.name}|${snippet.file}|fp${k}|conf`)).toFixed(2)),
    });
  }
  return findings;
}

/** Each profile's rates as realised on these snippets (the draws are fixed, so this is what the bench sees). */
export function describeRates(snippets: readonly Snippet[]): string {
  const lines = PROFILES.map((profile) => {
    const seen = { lens: 0, lensCaught: 0, other: 0, otherCaught: 0, wrong: 0 };
    for (const snippet of snippets) {
      const findings = reviewFindings(profile, snippet);
      for (const bug of snippet.bugs) {
        const caught = findings.some((f) => f.location.line === bug.line);
        if (bug.kind === profile.lens) ((seen.lens += 1), (seen.lensCaught += caught ? 1 : 0));
        else ((seen.other += 1), (seen.otherCaught += caught ? 1 : 0));
      }
      seen.wrong += findings.filter((f) => !near(snippet, f.location.line)).length;
    }
    const rate = (n: number, d: number) => (d ? n / d : 0).toFixed(2);
    return (
      `  ${profile.name}: recall ${rate(seen.lensCaught, seen.lens)} ` +
      `on its lens (stated ${profile.recall.lens}), ` +
      `${rate(seen.otherCaught, seen.other)} on others (stated ${profile.recall.other}); ` +
      `${rate(seen.wrong, snippets.length)} wrong findings per snippet (stated ${profile.falsePositives}); as ` +
      `a critic confirms a real bug ${profile.confirmReal}, disputes a wrong finding ${profile.disputeWrong}`
    );
  });
  return ["realised reviewer rates:", ...lines].join("\n");
}

function review(profile: ReviewerProfile, snippet: Snippet): FauxResponse {
  return fauxText(JSON.stringify({ findings: reviewFindings(profile, snippet) }));
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
