import { routeTask, type CouncilFinding, type CouncilResult, type CouncilReviewer } from "@x/council";
import { REVIEW_LENSES, reviewWithCouncil } from "../council-review";
import { formatTokens, formatUsd } from "../render/table";
import { createRuntime } from "../runtime";
import { readTextFile } from "../sandbox/files";
import { councilSummary } from "../summary";
import { REVIEW_CHANGE, type PlantedBug } from "./fixtures";
import type { Scenario } from "./scenario";

/** Each lens on its own scripted model (`reviewer-<name>` in the demo catalog). */
const COUNCIL: CouncilReviewer[] = REVIEW_LENSES.map((r) => ({ ...r, model: `reviewer-${r.name}` }));
/** The one reviewer it is compared with: the correctness lens, alone. */
const SINGLE: CouncilReviewer[] = COUNCIL.filter((r) => r.name === "correctness");

/** A reported finding catches a planted bug when it names the file and a line within one of it. */
function catches(finding: CouncilFinding, bug: PlantedBug): boolean {
  return finding.location.file === REVIEW_CHANGE.path && Math.abs(finding.location.line - bug.line) <= 1;
}

/** What a review got right and wrong against the change's answer key. */
export function scoreReview(result: CouncilResult): { caught: PlantedBug[]; wrong: CouncilFinding[] } {
  return {
    caught: REVIEW_CHANGE.planted.filter((bug) => result.findings.some((f) => catches(f, bug))),
    wrong: result.findings.filter((f) => !REVIEW_CHANGE.planted.some((bug) => catches(f, bug))),
  };
}

function verdictLine(who: string, result: CouncilResult): string {
  const { caught, wrong } = scoreReview(result);
  const s = councilSummary(who, result);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [
    `${who}: ${caught.length}/${REVIEW_CHANGE.planted.length} planted bugs reported`,
    `${plural(wrong.length, "wrong finding")} reported — ${plural(result.stats.modelCalls, "model call")}`,
    `${formatTokens(s.tokens, s.tokensEstimated)} tokens, ${formatUsd(s.costMicroUsd)}`,
  ].join(", ");
}

export const REVIEW_SCENARIO: Scenario = {
  name: "review",
  title: "7 · Council review: three lenses, a critique round, a wrong finding dropped",
  about: [
    "An open-ended review — find all the bugs in a change — has no answer to check, so teacher mode's verifier has",
    "nothing to decide; routeTask sends it to a council. Three scripted reviewers (security, correctness, tests and",
    "performance) review src/uploads.js independently, then each checks the findings it did not make. The correctness",
    "reviewer's NaN claim is disputed by the two others against the code, withdrawn by its finder in the second round,",
    "and dropped; the two planted bugs are reported. The same change reviewed by the correctness reviewer alone costs",
    "less, misses the security bug and reports the wrong finding.",
  ].join(" "),
  async run(ctx) {
    const runtime = await createRuntime(
      { mode: "demo", thinkMs: ctx.thinkMs },
      { emit: ctx.io.emit, teacherMode: false, cwd: ctx.io.cwd, env: ctx.io.env },
    );
    const objective = `Review this change before it ships: find all the bugs in ${REVIEW_CHANGE.path}.`;
    const route = routeTask({ objective });
    ctx.io.emit({ type: "route", mode: route.mode, reason: route.reason });
    if (route.mode !== "council") return { rows: [], ok: false };
    const task = {
      objective,
      files: [{ path: REVIEW_CHANGE.path, content: await readTextFile(ctx.sandbox, REVIEW_CHANGE.path) }],
    };

    const budget = { tokens: 60_000 };
    const council = await reviewWithCouncil(
      runtime.runner,
      "review (council)",
      task,
      { reviewers: COUNCIL, maxRounds: 2, budget },
      ctx.io.emit,
    );
    ctx.io.emit({ type: "note", text: "The same change, reviewed by the correctness reviewer alone:" });
    const single = await reviewWithCouncil(
      runtime.runner,
      "review (single)",
      task,
      { reviewers: SINGLE, budget },
      ctx.io.emit,
    );

    const ratio = single.stats.costMicroUsd === 0 ? 0 : council.stats.costMicroUsd / single.stats.costMicroUsd;
    ctx.io.emit({ type: "note", text: verdictLine("council of three", council) });
    ctx.io.emit({
      type: "note",
      text: `${verdictLine("single reviewer", single)}; the council cost ${ratio.toFixed(1)}× as much`,
    });

    const councilScore = scoreReview(council);
    return {
      rows: [councilSummary("review (council)", council), councilSummary("review (single)", single)],
      ok:
        council.status === "completed" &&
        councilScore.caught.length === REVIEW_CHANGE.planted.length &&
        councilScore.wrong.length === 0 &&
        council.belowThreshold.some((f) => f.disputedBy.length > 0),
    };
  },
};
