import type { AppEvent } from "./events";
import { findingsTable } from "./findings-table";
import { oneLine } from "./one-line";
import { formatTokens, formatUsd } from "./table";

type CouncilEvent = Extract<AppEvent, { type: "council" }>;

const STOPS: Record<string, string> = {
  agreement: "agreement (nothing contested)",
  round_cap: "the round cap",
  budget: "the budget",
  no_findings: "no findings",
  aborted: "aborted",
  all_failed: "every reviewer failed",
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A reviewer's answer, as words: the findings of its review, or its verdicts in a critique round. */
export function reviewerTurn(model: string, text: string): string | undefined {
  let reply: { findings?: unknown; verdicts?: unknown };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    return undefined;
  }
  if (Array.isArray(reply.findings)) {
    const found = (reply.findings as Array<{ location?: { file?: unknown; line?: unknown }; claim?: unknown }>).map(
      (f) => `${String(f.location?.file)}:${String(f.location?.line)} ${oneLine(String(f.claim), 48)}`,
    );
    return oneLine(
      `${model} found ${plural(found.length, "problem")}${found.length ? `: ${found.join("; ")}` : ""}`,
      220,
    );
  }
  if (Array.isArray(reply.verdicts)) {
    const said = (reply.verdicts as Array<{ id?: unknown; verdict?: unknown }>).map(
      (v) => `${oneLine(String(v.id), 8)} ${oneLine(String(v.verdict), 12)}`,
    );
    return oneLine(`${model} critique: ${said.length ? said.join(", ") : "no verdicts"}`, 220);
  }
  return undefined;
}

/** What the human output shows for a council's end: a line per reviewer, the table, the outcome, the disputes. */
export function councilLines(
  event: CouncilEvent,
  width?: number,
): { reviewers: string[]; table: string; outcome: string; disputes: string[] } {
  const estimated = event.summary.tokensEstimated;
  const spend = (tokens: number, micro: number) => `${formatTokens(tokens, estimated)} tokens, ${formatUsd(micro)}`;
  const reviewers = event.reviewers.map((r) => {
    const who = `${oneLine(r.name, 40)}${r.lens ? ` (lens: ${oneLine(r.lens, 40)})` : ""}`;
    const did = `${plural(r.findings, "finding")} of its own, ${plural(r.runs, "run")}`;
    const why = r.code !== undefined && r.code !== r.status ? ` (${r.code.replace(/_/g, " ")})` : "";
    return `${who}: ${r.status}${why} — ${did}, ${spend(r.tokens, r.costMicroUsd)}`;
  });
  const reported = event.findings.filter((f) => f.reported).length;
  const s = event.summary;
  const outcome = [
    `— ${reported} reported, ${event.findings.length - reported} dropped (score < ${event.threshold})`,
    `${plural(event.rounds, "critique round")}, stopped on ${STOPS[event.stoppedBecause] ?? event.stoppedBecause}`,
    `${plural(event.modelCalls, "model call")}, ${spend(s.tokens, s.costMicroUsd)}`,
  ].join(" · ");
  const disputes = event.findings.flatMap((f) =>
    f.disputedBy.map((d) => {
      const who = f.foundBy.includes(d.reviewer)
        ? `${d.reviewer}, its finder, withdrew it`
        : `disputed by ${d.reviewer}`;
      return `${f.id} ${oneLine(who, 60)}: ${oneLine(d.reason, 200)}`;
    }),
  );
  return { reviewers, table: findingsTable(event.findings, width), outcome, disputes };
}

/** The reported findings, one plain line each: what `x-agent run --mode council` answers on stdout. */
export function reportedFindings(event: CouncilEvent): string[] {
  return event.findings
    .filter((f) => f.reported)
    .map((f) => {
      const confirmed = f.confirmedBy.length ? `; confirmed by ${f.confirmedBy.join(", ")}` : "";
      const backing = `score ${f.score}; found by ${f.foundBy.join(", ")}${confirmed}`;
      return `${oneLine(f.location, 80)} [${oneLine(f.severity, 12)}] ${oneLine(f.claim, 400)} (${backing})`;
    });
}
