/**
 * Teacher mode on real model outputs: GSM8K test answers of Mixtral-8x7B (student) and GPT-4-1106
 * (teacher) recorded by RouteLLM, replayed through the real runner and `runWithTeacher`.
 * Run: `pnpm bench` in packages/teacher. Data: `bench/data/routellm-gsm8k` in this package (or GSM8K_DATA_DIR).
 */
import { microToUsd } from "@x/llm-types";
import type { Runner } from "@x/runner";
import { NUMERIC_CHECKS, numericAnswerChecks, secondOpinion, verifyInOrder, type TeacherConfig } from "../src/index";
import { extractorAgreement, loadGsm8k, locateGsm8kData } from "./gsm8k-data";
import { models, runSingle, runTeacherMode, type Judge, type Tally } from "./gsm8k-replay";
import { escalationCost, moneySplit, spread } from "./report";

const dataDir = locateGsm8kData();
const items = loadGsm8k(dataDir);

/** Deployable: no answer key anywhere. Upper bound: reads the key. Simulated: a judge at assumed rates. */
type Group = "baseline" | "deployable" | "upper" | "simulated";

interface Row {
  mode: string;
  verifier: string;
  tally: Tally;
  teacherMode: boolean;
  group: Group;
}

const pct = (n: number) => `${((100 * n) / items.length).toFixed(1)} %`;
const usd = (micro: number) => `$${microToUsd(micro).toFixed(2)}`;
const total = (t: Tally) => t.studentMicro + t.teacherMicro;

const started = Date.now();
const cpuStarted = process.cpuUsage();
const agreement = extractorAgreement(items);
const student = await runSingle(items, "student");
const teacher = await runSingle(items, "teacher");
const share = (t: Tally) => total(t) / total(teacher);
const ofTeacherOnly = (t: Tally) => `${(100 * share(t)).toFixed(1)} %`;

function line({ mode, verifier, tally, teacherMode }: Row): string {
  const ratio = teacherMode ? (tally.teacherTokens / tally.studentTokens).toFixed(2) : "—";
  const precision = tally.escalated ? ((100 * tally.escalatedWrong) / tally.escalated).toFixed(0) : "0";
  const escalation = teacherMode ? `${pct(tally.escalated)} (${precision} %)` : "—";
  const calls = teacherMode && tally.escalated ? (tally.teacherCalls / tally.escalated).toFixed(2) : "—";
  return (
    `| ${mode} | ${verifier} | ${pct(tally.correct)} | ${usd(total(tally))} | ${ofTeacherOnly(tally)} ` +
    `| ${usd(tally.studentMicro)} | ${usd(tally.teacherMicro)} | ${escalation} | ${calls} | ${ratio} |`
  );
}

const CODE: Judge = { kind: "code" };
const EXACT: Judge = { kind: "exact" };
const rows: Row[] = [
  { mode: "student-only", verifier: "—", tally: student, teacherMode: false, group: "baseline" },
  { mode: "teacher-only", verifier: "—", tally: teacher, teacherMode: false, group: "baseline" },
];
let group: Group = "deployable";
const add = async (mode: string, verifier: string, judge: Judge, config: TeacherConfig = {}) => {
  const tally = await runTeacherMode(items, judge, config);
  rows.push({ mode, verifier, tally, teacherMode: true, group });
  return tally;
};

// Deployable: verifiers that never see the reference; every model call they make is billed.
const deployable = (verify: (runner: Runner) => NonNullable<TeacherConfig["verify"]>): Judge => ({
  kind: "deployable",
  verify,
});
const second = (model: "gpt-4o-mini" | "gpt-3.5-turbo") => (runner: Runner) => secondOpinion({ runner, model });
await add(
  "defaults + `numericAnswerChecks()`",
  "code checks on the student's text",
  deployable(() => numericAnswerChecks()),
);
await add(
  "… + unused quantities",
  "code checks, all six",
  deployable(() => numericAnswerChecks({ checks: NUMERIC_CHECKS })),
);
const mini = await add(
  "**defaults + `secondOpinion`**",
  "gpt-4o-mini's answer compared",
  deployable(second("gpt-4o-mini")),
);
await add("defaults + `secondOpinion`", "gpt-3.5-turbo's answer compared", deployable(second("gpt-3.5-turbo")));
await add(
  "`verifyInOrder(numericAnswerChecks(), secondOpinion)`",
  "code, then gpt-4o-mini",
  deployable((runner) => verifyInOrder(numericAnswerChecks(), second("gpt-4o-mini")(runner))),
);
await add(
  "`verifyInOrder(numericAnswerChecks(), secondOpinion)`",
  "code, then gpt-3.5-turbo",
  deployable((runner) => verifyInOrder(numericAnswerChecks(), second("gpt-3.5-turbo")(runner))),
);

// Upper bounds: the GSM8K reference answer decides (no deployment has it).
group = "upper";

const keyed = await add("defaults + answer-key `verify`", "(c) exact answer in code", CODE);
const defaults = await add("defaults", "(a) exact answer, helper call", EXACT);
const fullBrief = await add('takeoverBrief "full"', "(c)", CODE, { takeoverBrief: "full" });
await add('takeoverBrief "short"', "(c)", CODE, { takeoverBrief: "short" });
await add("takeoverAdvice true (as with a strategy store)", "(c)", CODE, { takeoverAdvice: true });
const seedTakeover = { takeoverBrief: "full", takeoverAdvice: true } as const;
const before = await add('before #14: brief "full" + advice block', "(a)", EXACT, seedTakeover);
await add("oneShot false (the seed's defaults as on a tool run)", "(c)", CODE, { oneShot: false });
await add("oneShot false, takeoverAfter 1, token cap lifted", "(c)", CODE, {
  oneShot: false,
  takeoverAfter: 1,
  teacherSpendRatioCap: 1000,
});
await add("… + teacherCostRatioCap 0.4 (money)", "(c)", CODE, {
  oneShot: false,
  takeoverAfter: 1,
  teacherSpendRatioCap: 1000,
  teacherCostRatioCap: 0.4,
});
// Simulated: a rubric judge at assumed rates — a coin flip on the CSV's True/False, not a measured verifier.
group = "simulated";
for (const tpr of [1.0, 0.9, 0.8, 0.7])
  for (const fpr of [0, 0.1, 0.2])
    await add("defaults", `(b) TP ${tpr.toFixed(1)} / FP ${fpr.toFixed(1)}`, { kind: "rubric", tpr, fpr, seed: 7 });
await add(
  "defaults, verifierSamples 3",
  "(b) TP 0.8 / FP 0.1",
  { kind: "rubric", tpr: 0.8, fpr: 0.1, seed: 7 },
  {
    verifierSamples: 3,
  },
);

// The oracle router: the student everywhere, plus one bare teacher call exactly where the student was wrong.
const oracle: Tally = {
  ...student,
  correct: items.filter((i) => i.studentCorrect || i.teacherCorrect).length,
  teacherMicro: items.reduce((sum, item, i) => sum + (item.studentCorrect ? 0 : teacher.perItem[i]!.micro), 0),
};
rows.push({ mode: "oracle", verifier: "perfect router", tally: oracle, teacherMode: false, group: "upper" });

// The cheapest configuration's verifier swapped for a noisy judge, over several seeds.
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const noisy = async (verifierSamples: number) => {
  const tallies: Tally[] = [];
  for (const seed of SEEDS)
    tallies.push(await runTeacherMode(items, { kind: "rubric", tpr: 0.8, fpr: 0.1, seed }, { verifierSamples }));
  return {
    accuracy: spread(tallies.map((t) => (100 * t.correct) / items.length)),
    cost: spread(tallies.map((t) => (100 * total(t)) / total(teacher))),
  };
};
const noisy1 = await noisy(1);
const noisy3 = await noisy(3);
const wall = (Date.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);

console.log(`GSM8K test set, ${items.length} questions (${dataDir})`);
console.log(
  `Answer extractor vs the CSV's True/False: agrees on ${(agreement.student * 100).toFixed(1)} % ` +
    `(Mixtral), ${(agreement.teacher * 100).toFixed(1)} % (GPT-4); grading uses the CSV's True/False.`,
);
console.log(
  "Prices per million tokens: Mixtral-8x7B $0.60 in / $0.60 out; GPT-4-1106 " +
    "$10 in / $30 out. Tokens = ceil(chars / 4) of each request and reply.",
);
const cached = Object.values(models).some((m) => m.cost.cacheRead > 0);
console.log(
  cached
    ? "Cache reads: priced in the catalog, but the replay brain bills none.\n"
    : "Cache reads: not billed. GPT-4-1106-preview predates provider prompt caching (no cache price " +
        "in the catalog), and the replay brain bills every input token at the full input price.\n",
);
console.log(
  "| mode | verifier | accuracy | cost | of teacher-only | student + helper | teacher | escalation " +
    "rate (of which student was wrong) | teacher calls / escalation | teacher / student tokens |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
const HEADINGS: Record<Group, string> = {
  baseline: "One model alone",
  deployable: "Deployable — no answer key anywhere; every model call billed",
  upper: "Upper bounds — the GSM8K reference answer decides (no deployment has it)",
  simulated: "Simulated — a rubric judge at assumed rates (a coin flip on the CSV's grade, not a verifier)",
};
for (const heading of Object.keys(HEADINGS) as Group[]) {
  console.log(`| *${HEADINGS[heading]}* |||||||||| `);
  for (const row of rows.filter((r) => r.group === heading)) console.log(line(row));
}

// The target reads deployable rows only: a figure that needs the answer key is a ceiling, not a result.
const GOAL = { accuracy: 0.914, cost: 0.467 };
const accuracy = (t: Tally) => t.correct / items.length;
const fielded = rows.filter((r) => r.group === "deployable");
const label = (r: Row) => `${r.mode.replace(/\*\*/g, "")} (${r.verifier})`;
const figure = (r: Row) => `${pct(r.tally.correct)} at ${ofTeacherOnly(r.tally)}`;
const meeting = fielded.filter((r) => accuracy(r.tally) >= GOAL.accuracy && share(r.tally) <= GOAL.cost);
const withinCost = fielded.filter((r) => share(r.tally) <= GOAL.cost).sort((a, b) => b.tally.correct - a.tally.correct);
const mostAccurate = [...fielded].sort((a, b) => b.tally.correct - a.tally.correct || total(a.tally) - total(b.tally));
console.log(`
Target, deployable rows only: ≥ ${(100 * GOAL.accuracy).toFixed(1)} % at ≤ ${(100 * GOAL.cost).toFixed(1)} % of \
teacher-only cost — ${meeting.length > 0 ? `met by ${meeting.map(label).join("; ")}` : "NOT met"}.
  Most accurate deployable row: ${label(mostAccurate[0]!)}, ${figure(mostAccurate[0]!)}.
  Most accurate within the cost goal: ${withinCost[0] ? `${label(withinCost[0])}, ${figure(withinCost[0])}` : "none"}.
  Ceiling (needs the answer key): the oracle router, ${pct(oracle.correct)} at ${ofTeacherOnly(oracle)}.
  Where the gpt-4o-mini second-opinion row loses against the ceiling: its second model's replies cost \
${(100 * (mini.spend.helperMicro / total(teacher))).toFixed(1)} % of teacher-only; \
${mini.escalated - mini.escalatedWrong} of its ${mini.escalated} escalations were of right answers; \
${items.filter((i) => !i.studentCorrect).length - mini.escalatedWrong} wrong answers passed (the models agreed, or \
the CSV's grade and the final number disagree). ${mini.unverified} takeover answers failed the same check and \
ended \`failed\` (\`output_invalid\`) instead of \`completed\` (${mini.unverifiedRight} of them right by the CSV).
Same escalation with a noisy rubric judge (simulated, TP 0.8 / FP 0.1) instead of \`verify\`, seeds ${SEEDS.join(", ")}:
  1 vote:  accuracy ${noisy1.accuracy}; cost ${noisy1.cost} of teacher-only
  3 votes: accuracy ${noisy3.accuracy}; cost ${noisy3.cost} of teacher-only`);
// What each code signal sees on the student's own answers: how often it fires, and how often it is right to.
const wrong = items.filter((i) => !i.studentCorrect).length;
console.log(`
Code signals (numericAnswerChecks, one check each) on Mixtral's ${items.length} answers, ${wrong} of them wrong:`);
for (const check of NUMERIC_CHECKS) {
  const verify = numericAnswerChecks({ checks: [check] });
  const fired = items.filter((i) => verify({ task: i.question, output: i.studentResponse }) !== undefined);
  const hits = fired.filter((i) => !i.studentCorrect).length;
  const precision = fired.length === 0 ? "—" : `${((100 * hits) / fired.length).toFixed(0)} %`;
  console.log(
    `  ${check}: fires on ${fired.length}, of which wrong ${precision}; ` +
      `finds ${((100 * hits) / wrong).toFixed(1)} % of the wrong answers`,
  );
}
console.log(`
Cost per escalation, against a bare GPT-4 answer to the same escalated questions:`);
for (const [name, tally] of [
  ["defaults + secondOpinion (gpt-4o-mini)", mini],
  ["defaults + answer-key verify", keyed],
  ['takeoverBrief "full"', fullBrief],
  ["before #14 (full brief + advice block)", before],
  ["defaults, helper verifier", defaults],
] as const)
  console.log(`  ${name}: ${escalationCost(tally, teacher)}`);
console.log(`
Where the money goes (shares of each run's cost):`);
for (const [name, tally] of [
  ["defaults + secondOpinion (gpt-4o-mini; helper = the second model)", mini],
  ["defaults + answer-key verify", keyed],
  ["defaults, helper verifier", defaults],
  ["before #14", before],
] as const)
  console.log(`  ${name}: ${moneySplit(tally)}`);
console.log(`
Replayed: every student answer is Mixtral-8x7B's recorded response and every takeover answer GPT-4-1106's
recorded response (RouteLLM's CSV), served by a replay Brain that finds the question in the request, through
the real @x/runner and runWithTeacher. Second opinions (deployable rows) are gpt-4o-mini's and gpt-3.5-turbo's
recorded final answers to the same questions (the Re2 paper's logs, data/re2-gsm8k, Apache-2.0), asked by
secondOpinion through the same runner and billed at the recorded reply's length ($0.15 / $0.60 and, at
gpt-3.5-turbo-0613's 2023 price, $1.50 / $2.00 per million tokens); the takeover's answer is checked by
the same verify (a second opinion's answer is reused, not bought twice). Correctness is the CSV's
True/False. Each question is a one-shot task (no tools), so the defaults take over at once (takeoverAfter
0), show the teacher the bare task (takeoverBrief "none") and ask for no advice block (no strategy store):
the takeover request is the one a bare GPT-4 call sends.
Deployable rows never read the reference or the CSV's grade to decide (the rubric verifier is off there:
its replay reads the key). Synthetic: the teacher's advice (one fixed JSON text — the data has none),
billed at GPT-4 prices where asked for; and the upper-bound and simulated verdicts: (c) the host's verify
function, the answer's final number against the GSM8K reference (zero tokens; it errs where the extractor
does); (a) the same check answered by a verifier call on the student's model (billed); (b, simulated) a
verifier call that flags a wrong answer (by the CSV) with probability TP and a right one with probability
FP, independently per sample (mulberry32; seed 7 in the table).
"oneShot false" rows read each question as a tool run would be read: advice first (takeoverAfter 2); the
advice cannot change a replayed answer, and the token cap (0.4) refuses most later escalations.
Oracle cost: the student everywhere + a bare teacher call where the student was wrong.
Wall ${wall.toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s \
(${rows.length - 3 + 2 * SEEDS.length} teacher-mode passes over ${items.length} questions).`);
