// One bench setup measured over the labelled snippets, and the table every run prints — the same
// code whether the reviewers are scripted or a real endpoint answers them.
import type { Runner } from "@x/runner";
import { runCouncil, type CouncilFinding, type CouncilReviewer } from "../src/index";
import type { PlantedBug, Snippet } from "./snippets";

export interface Setup {
  label: string;
  reviewers: number;
  rounds: number;
  threshold: number;
}

export const SETUPS: readonly Setup[] = [
  { label: "single reviewer, all findings", reviewers: 1, rounds: 0, threshold: 0 },
  { label: "council ×3, union (no critique)", reviewers: 3, rounds: 0, threshold: 0 },
  { label: "council ×3, 1 critique round, ≥60", reviewers: 3, rounds: 1, threshold: 60 },
  { label: "council ×3, 2 critique rounds, ≥60", reviewers: 3, rounds: 2, threshold: 60 },
];

export interface Tally {
  planted: number;
  caught: number;
  reported: number;
  correct: number;
  tokens: number;
  costMicroUsd: number;
  modelCalls: number;
  wallMs: number;
  cpuMs: number;
}

/**
 * The planted bug a finding catches: the nearest one in the snippet's file within one line of it
 * (bugs on adjacent lines are each caught by a finding on their own line).
 */
export function plantedBugAt(snippet: Snippet, finding: Pick<CouncilFinding, "location">) {
  if (finding.location.file !== snippet.file) return undefined;
  const gap = (bug: PlantedBug) => Math.abs(bug.line - finding.location.line);
  return snippet.bugs.filter((bug) => gap(bug) <= 1).sort((a, b) => gap(a) - gap(b))[0];
}

/** Runs one setup over every snippet, one council at a time. */
export async function measure(
  runner: Runner,
  reviewers: readonly CouncilReviewer[],
  setup: Setup,
  snippets: readonly Snippet[],
): Promise<Tally> {
  const tally: Tally = {
    planted: 0,
    caught: 0,
    reported: 0,
    correct: 0,
    tokens: 0,
    costMicroUsd: 0,
    modelCalls: 0,
    wallMs: 0,
    cpuMs: 0,
  };
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (const snippet of snippets) {
    const result = await runCouncil(
      runner,
      { objective: "Find all the bugs in this code.", files: [{ path: snippet.file, content: snippet.code }] },
      { reviewers: reviewers.slice(0, setup.reviewers), maxRounds: setup.rounds, threshold: setup.threshold },
    );
    const caught = new Set<number>();
    for (const finding of result.findings) {
      const bug = plantedBugAt(snippet, finding);
      tally.reported += 1;
      if (bug) {
        tally.correct += 1;
        caught.add(bug.line);
      }
    }
    tally.planted += snippet.bugs.length;
    tally.caught += caught.size;
    tally.tokens += result.stats.tokens;
    tally.costMicroUsd += result.stats.costMicroUsd;
    tally.modelCalls += result.stats.modelCalls;
  }
  const used = process.cpuUsage(cpu);
  tally.wallMs = performance.now() - wall;
  tally.cpuMs = (used.user + used.system) / 1000;
  return tally;
}

/** Recall, precision and F1 of a tally. */
export function quality(tally: Tally): { recall: number; precision: number; f1: number } {
  const recall = tally.planted ? tally.caught / tally.planted : 0;
  const precision = tally.reported ? tally.correct / tally.reported : 0;
  const f1 = recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
  return { recall, precision, f1 };
}

const HEAD = [
  "setup",
  "recall",
  "precision",
  "F1",
  "reported",
  "tokens",
  "cost",
  "model calls",
  "× single cost",
  "wall ms",
  "CPU ms",
];

/** The table, each cost also as a ratio to the first row's (the single reviewer). */
export function table(rows: ReadonlyArray<[string, Tally]>): string {
  const base = rows[0]![1];
  const body = rows.map(([label, t]) => {
    const { recall, precision, f1 } = quality(t);
    return [
      label,
      recall.toFixed(3),
      precision.toFixed(3),
      f1.toFixed(3),
      String(t.reported),
      String(t.tokens),
      `$${(t.costMicroUsd / 1e6).toFixed(4)}`,
      String(t.modelCalls),
      base.costMicroUsd ? `${(t.costMicroUsd / base.costMicroUsd).toFixed(2)}×` : "–",
      t.wallMs.toFixed(0),
      t.cpuMs.toFixed(0),
    ];
  });
  const widths = HEAD.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `│ ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" │ ")} │`;
  const rule = (l: string, m: string, r: string) => `${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`;
  return [rule("┌", "┬", "┐"), line(HEAD), rule("├", "┼", "┤"), ...body.map(line), rule("└", "┴", "┘")].join("\n");
}
