import { createFauxBrain, fauxModel, fauxText, type FauxRequestContext, type FauxResponse } from "@x/brain-faux";
import { createRunner, type RunnerDeps } from "@x/runner";
import type { Finding } from "../src/index";

const price = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
export const REVIEWERS = ["ana", "bo", "cy"] as const;
export type ReviewerName = (typeof REVIEWERS)[number];

export const models = Object.fromEntries(
  REVIEWERS.map((name) => [name, fauxModel({ id: name, api: `faux-${name}`, baseUrl: `faux://${name}`, cost: price })]),
);

/** What a scripted reviewer does: its findings, and its verdict on each finding it is shown (by claim). */
export interface ReviewerScript {
  findings?: Finding[];
  /** Keyed by a word in the shown finding's claim; default `confirm`. */
  verdicts?: Record<string, "confirm" | "dispute" | { duplicateOfClaim: string }>;
  /** Replaces the whole reply, e.g. an error or a delay. */
  reply?: (ctx: FauxRequestContext) => FauxResponse;
}

export function finding(
  file: string,
  line: number,
  claim: string,
  confidence = 0.8,
  severity: Finding["severity"] = "high",
): Finding {
  return { location: { file, line }, claim, evidence: `see line ${line}`, severity, confidence };
}

function requestText(ctx: FauxRequestContext): string {
  return ctx.context.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

/** Reads `F1. file:line — claim` lines out of a critique request. */
function shownFindings(text: string): Array<{ id: string; claim: string }> {
  return [...text.matchAll(/^(F\d+)\. \S+:\d+ — (.+)$/gm)].map((m) => ({ id: m[1]!, claim: m[2]! }));
}

export function scripted(script: ReviewerScript) {
  return (ctx: FauxRequestContext): FauxResponse => {
    if (script.reply) return script.reply(ctx);
    const text = requestText(ctx);
    if (!text.includes('"verdicts"')) return fauxText(JSON.stringify({ findings: script.findings ?? [] }));
    const shown = shownFindings(text);
    const verdicts = shown.map(({ id, claim }) => {
      const key = Object.keys(script.verdicts ?? {}).find((word) => claim.includes(word));
      const rule = key ? script.verdicts![key]! : "confirm";
      if (typeof rule === "object") {
        const target = shown.find((s) => s.claim.includes(rule.duplicateOfClaim));
        return { id, verdict: "duplicate", duplicateOf: target?.id ?? id, reason: "same problem" };
      }
      return {
        id,
        verdict: rule,
        reason: rule === "dispute" ? `the code handles ${claim.split(" ")[0]}` : "I see it too",
      };
    });
    return fauxText(JSON.stringify({ verdicts }));
  };
}

export function councilSetup(scripts: Partial<Record<ReviewerName, ReviewerScript>>, deps: Partial<RunnerDeps> = {}) {
  const brains = REVIEWERS.map((name) => createFauxBrain(scripted(scripts[name] ?? {}), { api: `faux-${name}` }));
  const runner = createRunner({ brains, models, roles: { default: "ana" }, ...deps });
  const calls = (name: ReviewerName) => brains[REVIEWERS.indexOf(name)]!.calls;
  return { runner, brains, calls };
}

export const reviewers = (names: readonly ReviewerName[] = REVIEWERS) =>
  names.map((name) => ({ name, model: name, lens: `${name}'s lens` }));

export const TASK = {
  objective: "Find all the bugs in this change.",
  files: [
    {
      path: "src/sum.ts",
      content:
        "export function sum(xs: number[]) {\n  let t = 0;\n  for " +
        "(let i = 0; i <= xs.length; i++) t += xs[i];\n  return t;\n}",
    },
  ],
};
