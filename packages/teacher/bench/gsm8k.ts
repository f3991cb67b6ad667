/**
 * Teacher mode on real model outputs: GSM8K test answers of Mixtral-8x7B (student) and GPT-4-1106
 * (teacher) recorded by RouteLLM, replayed through the real runner and `runWithTeacher`.
 * Run: `pnpm bench` in packages/teacher. Data: `bench/data/routellm-gsm8k` in this package (or GSM8K_DATA_DIR).
 */
import { microToUsd } from "@x/llm-types";
import { extractorAgreement, loadGsm8k, locateGsm8kData } from "./gsm8k-data";
import { runSingle, runTeacherMode, type Judge, type Tally } from "./gsm8k-replay";

const dataDir = locateGsm8kData();
const items = loadGsm8k(dataDir);

interface Row {
  mode: string;
  verifier: string;
  tally: Tally;
  teacherMode: boolean;
}

const pct = (n: number) => `${((100 * n) / items.length).toFixed(1)} %`;
const usd = (micro: number) => `$${microToUsd(micro).toFixed(2)}`;

function line({ mode, verifier, tally, teacherMode }: Row): string {
  const total = tally.studentMicro + tally.teacherMicro;
  const ratio = teacherMode ? (tally.teacherTokens / tally.studentTokens).toFixed(2) : "—";
  const precision = tally.escalated ? ((100 * tally.escalatedWrong) / tally.escalated).toFixed(0) : "0";
  const escalation = teacherMode ? `${pct(tally.escalated)} (${precision} %)` : "—";
  return `| ${mode} | ${verifier} | ${pct(tally.correct)} | ${usd(total)} | ${usd(tally.studentMicro)} | ${usd(tally.teacherMicro)} | ${escalation} | ${ratio} |`;
}

const started = Date.now();
const agreement = extractorAgreement(items);
const student = await runSingle(items, "student");
const teacher = await runSingle(items, "teacher");
const rows: Row[] = [
  { mode: "student-only", verifier: "—", tally: student, teacherMode: false },
  { mode: "teacher-only", verifier: "—", tally: teacher, teacherMode: false },
];
const sweep: Array<[Judge, number, string]> = [[{ kind: "exact" }, 1, "(a) exact answer"]];
for (const tpr of [1.0, 0.9, 0.8, 0.7]) {
  for (const fpr of [0, 0.1, 0.2])
    sweep.push([{ kind: "rubric", tpr, fpr, seed: 7 }, 1, `(b) TP ${tpr.toFixed(1)} / FP ${fpr.toFixed(1)}`]);
}
sweep.push([{ kind: "rubric", tpr: 0.8, fpr: 0.1, seed: 7 }, 3, "(b) TP 0.8 / FP 0.1, 3 votes"]);
sweep.push([{ kind: "rubric", tpr: 0.7, fpr: 0.2, seed: 7 }, 3, "(b) TP 0.7 / FP 0.2, 3 votes"]);
for (const [judge, samples, label] of sweep)
  rows.push({
    mode: "teacher mode",
    verifier: label,
    tally: await runTeacherMode(items, judge, samples),
    teacherMode: true,
  });
// All defaults (takeoverAfter 2): the replayed student repeats its answer after advice, and the spend cap soon refuses further escalations.
rows.push({
  mode: "teacher mode, defaults",
  verifier: "(a) exact answer",
  tally: await runTeacherMode(items, { kind: "exact" }, 1, 2),
  teacherMode: true,
});

// The oracle router: the student everywhere, plus one bare teacher call exactly where the student was wrong.
const oracle: Tally = {
  ...student,
  correct: items.filter((i) => i.studentCorrect || i.teacherCorrect).length,
  teacherMicro: items.reduce((sum, item, i) => sum + (item.studentCorrect ? 0 : teacher.perItem[i]!.micro), 0),
};
rows.push({ mode: "oracle", verifier: "perfect router", tally: oracle, teacherMode: false });

console.log(`GSM8K test set, ${items.length} questions (${dataDir})`);
console.log(
  `Answer extractor vs the CSV's True/False: agrees on ${(agreement.student * 100).toFixed(1)} % (Mixtral), ${(agreement.teacher * 100).toFixed(1)} % (GPT-4); grading uses the CSV's True/False.`,
);
console.log(
  "Prices per million tokens: Mixtral-8x7B $0.60 in / $0.60 out; GPT-4-1106 $10 in / $30 out. Tokens = ceil(chars / 4) of each request and reply.\n",
);
console.log(
  "| mode | verifier | accuracy | cost | student + helper | teacher | escalation rate (of which student was wrong) | teacher / student tokens |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(line(row));
const exact = rows.find((r) => r.mode === "teacher mode" && r.verifier.startsWith("(a)"))!.tally;
const each = (micro: number) => `$${(microToUsd(micro) / exact.escalated).toFixed(4)}`;
console.log(`
Per escalation with verifier (a): ${(exact.teacherCalls / exact.escalated).toFixed(2)} teacher calls; advice asks ${each(exact.spend.adviceMicro)}, takeovers (answer + advice block) ${each(exact.spend.takeoverMicro)}; a bare GPT-4 answer averages $${(microToUsd(teacher.teacherMicro) / items.length).toFixed(4)}.`);
console.log(`
Replayed: every student answer is Mixtral-8x7B's recorded response and every takeover answer GPT-4-1106's
recorded response (RouteLLM's CSV), served by a replay Brain that finds the question in the request, through
the real @x/runner and runWithTeacher. Correctness is the CSV's True/False.
Synthetic: the teacher's advice (one fixed JSON text — the data has none), and the verifier on the student's
model: (a) an exact-answer check — the answer's final number against the GSM8K reference (it errs where the
extractor does); (b) flags a wrong answer (by the CSV) with probability TP and a right one with probability FP,
independently per sample (mulberry32, seed 7).
Teacher mode: takeoverAfter 0 (a replayed student cannot act on advice), other options at their defaults; the
takeover is decided before the teacher is asked, so each escalation is ONE teacher call: GPT-4's recorded answer
followed by the synthetic advice block, which runWithTeacher cuts off and records. The spend cap (0.4) never
binds there: it refuses only a second escalation. "defaults" keeps takeoverAfter 2: the advice cannot change a
replayed answer and the spend cap refuses the second or third escalation for nearly every question, so few
reach the takeover. Oracle cost: the student everywhere + a bare teacher call where the student was wrong. Wall time ${((Date.now() - started) / 1000).toFixed(1)} s.`);
