/**
 * Teacher mode on real model outputs: GSM8K test answers of Mixtral-8x7B (student) and GPT-4-1106
 * (teacher) recorded by RouteLLM, replayed through the real runner and `runWithTeacher`.
 * Run: `pnpm bench` in packages/teacher. Data: `<repo>/../shared/data/routellm-gsm8k` (or GSM8K_DATA_DIR).
 */
import { defineCatalog, microToUsd, type Context, type Model } from "@x/llm-types";
import { createRunner, type Runner } from "@x/runner";
import { MONITOR_PROMPT, runWithTeacher, TEACHER_PROMPT, VERIFIER_PROMPT } from "../src/index";
import { extractorAgreement, loadGsm8k, locateGsm8kData, type Gsm8kItem } from "./gsm8k-data";
import { ReplayBrain } from "./replay-brain";

const PRICES = { student: { input: 0.6, output: 0.6 }, teacher: { input: 10, output: 30 } };
const models = defineCatalog({
  student: { id: "Mixtral-8x7B-Instruct-v0.1", api: "replay", provider: "replay", baseUrl: "replay://mixtral", contextWindow: 32_768, maxTokens: 4096, cost: PRICES.student },
  teacher: { id: "gpt-4-1106-preview", api: "replay", provider: "replay", baseUrl: "replay://gpt-4", contextWindow: 128_000, maxTokens: 4096, cost: PRICES.teacher },
});
const SOLVE_PROMPT = "Solve the grade-school math problem. Reason step by step and end with the final number.";
// The recorded data has no teacher advice, so the advice is this fixed text (synthetic, billed at GPT-4 prices).
const ADVICE = JSON.stringify({
  strategy: "Re-derive each quantity from the statement, one step at a time, and re-check the arithmetic before answering.",
  correction: "The final number does not follow from the problem statement.",
  nextStep: "Recompute the answer from the given quantities.",
  takeover: false,
  confidence: 1,
});

const dataDir = locateGsm8kData();
const items = loadGsm8k(dataDir);
const byQuestion = new Map(items.map((item) => [item.question, item]));

function itemOf(context: Context): Gsm8kItem {
  for (const message of context.messages) {
    if (message.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : message.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    for (const line of text.split("\n")) {
      const item = byQuestion.get(line.trim());
      if (item) return item;
    }
  }
  throw new Error("no GSM8K question in the request");
}

/** Whether a final output is right, by the CSV's recorded True/False for the model whose text it is. */
function isCorrect(item: Gsm8kItem, output: string): boolean {
  if (output === item.studentResponse) return item.studentCorrect;
  if (output === item.teacherResponse) return item.teacherCorrect;
  throw new Error(`output for question ${item.index} is neither recorded response`);
}

type Judge = { kind: "exact" } | { kind: "rubric"; tpr: number; fpr: number; seed: number };

/** mulberry32 on a hash of (seed, question, sample): each verdict is reproducible whatever the run order. */
function uniform(seed: number, index: number, sample: number): number {
  let a = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35) ^ Math.imul(sample + 1, 0x27d4eb2f)) >>> 0;
  a = (a + 0x6d2b79f5) | 0;
  let t = Math.imul(a ^ (a >>> 15), 1 | a);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function replayRunner(judge: Judge): Runner {
  const samples = new Map<number, number>();
  const brain = new ReplayBrain((model: Model, context: Context) => {
    const item = itemOf(context);
    if (model.id === models.teacher!.id) return context.systemPrompt === TEACHER_PROMPT ? ADVICE : item.teacherResponse;
    if (context.systemPrompt === MONITOR_PROMPT) return '{"stuck": true, "reason": "replay: no tools are used"}';
    if (context.systemPrompt !== VERIFIER_PROMPT) return item.studentResponse;
    const last = context.messages.at(-1);
    const checked = typeof last?.content === "string" ? last.content.split("Answer to check:\n")[1] ?? "" : "";
    const correct = isCorrect(item, checked);
    let pass = correct;
    if (judge.kind === "rubric") {
      const n = samples.get(item.index) ?? 0;
      samples.set(item.index, n + 1);
      const flags = uniform(judge.seed, item.index, n) < (correct ? judge.fpr : judge.tpr);
      pass = !flags;
    }
    return JSON.stringify({ pass, reason: pass ? "the answer follows" : "the final number looks wrong" });
  });
  return createRunner({ brains: [brain], models, roles: { advisor: "teacher" } });
}

interface Row {
  mode: string;
  verifier: string;
  correct: number;
  studentMicro: number;
  teacherMicro: number;
  studentTokens: number;
  teacherTokens: number;
  escalated: number;
  escalatedWrong: number;
}

const spec = (item: Gsm8kItem, model: string) => ({ model, systemPrompt: SOLVE_PROMPT, objective: item.question, maxTurns: 1 });

async function single(model: "student" | "teacher"): Promise<Row & { perItem: number[] }> {
  const runner = replayRunner({ kind: "exact" });
  const row: Row & { perItem: number[] } = { mode: `${model}-only`, verifier: "—", correct: 0, studentMicro: 0, teacherMicro: 0, studentTokens: 0, teacherTokens: 0, escalated: 0, escalatedWrong: 0, perItem: [] };
  for (const item of items) {
    const result = await runner.runTask(spec(item, model));
    if (isCorrect(item, result.output)) row.correct++;
    row.perItem.push(result.stats.costMicroUsd);
    if (model === "student") {
      row.studentMicro += result.stats.costMicroUsd;
      row.studentTokens += result.stats.tokens;
    } else {
      row.teacherMicro += result.stats.costMicroUsd;
      row.teacherTokens += result.stats.tokens;
    }
  }
  return row;
}

async function teacherMode(judge: Judge, verifierSamples: number, label: string): Promise<Row> {
  const runner = replayRunner(judge);
  const row: Row = { mode: "teacher mode", verifier: label, correct: 0, studentMicro: 0, teacherMicro: 0, studentTokens: 0, teacherTokens: 0, escalated: 0, escalatedWrong: 0 };
  for (const item of items) {
    // takeoverAfter 0: a replayed student cannot act on advice (its answer is fixed), so a correction
    // round could only repeat the same answer; the first escalation is a takeover.
    const result = await runWithTeacher(runner, spec(item, "student"), { takeoverAfter: 0, verifierSamples });
    if (isCorrect(item, result.output)) row.correct++;
    row.studentMicro += result.stats.costMicroUsd;
    row.studentTokens += result.stats.tokens;
    row.teacherMicro += result.teacherStats.costMicroUsd ?? 0;
    row.teacherTokens += result.teacherStats.tokens;
    if (result.escalations.length > 0) {
      row.escalated++;
      if (!item.studentCorrect) row.escalatedWrong++;
    }
  }
  return row;
}

const pct = (n: number) => `${((100 * n) / items.length).toFixed(1)} %`;
const usd = (micro: number) => `$${microToUsd(micro).toFixed(2)}`;

function line(row: Row): string {
  const total = row.studentMicro + row.teacherMicro;
  const ratio = row.studentTokens > 0 && row.mode === "teacher mode" ? (row.teacherTokens / row.studentTokens).toFixed(2) : "—";
  const escalation = row.mode === "teacher mode" ? `${pct(row.escalated)} (${row.escalated ? ((100 * row.escalatedWrong) / row.escalated).toFixed(0) : 0} % wrong)` : "—";
  return `| ${row.mode} | ${row.verifier} | ${pct(row.correct)} | ${usd(total)} | ${usd(row.studentMicro)} | ${usd(row.teacherMicro)} | ${escalation} | ${ratio} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const agreement = extractorAgreement(items);
  const student = await single("student");
  const teacher = await single("teacher");
  const rows: Row[] = [student, teacher];
  rows.push(await teacherMode({ kind: "exact" }, 1, "(a) exact answer (CSV True/False)"));
  for (const tpr of [1.0, 0.9, 0.8, 0.7]) {
    for (const fpr of [0, 0.1, 0.2]) rows.push(await teacherMode({ kind: "rubric", tpr, fpr, seed: 7 }, 1, `(b) rubric TP ${tpr.toFixed(1)} FP ${fpr.toFixed(1)}`));
  }
  rows.push(await teacherMode({ kind: "rubric", tpr: 0.8, fpr: 0.1, seed: 7 }, 3, "(b) rubric TP 0.8 FP 0.1, 3 votes"));
  rows.push(await teacherMode({ kind: "rubric", tpr: 0.7, fpr: 0.2, seed: 7 }, 3, "(b) rubric TP 0.7 FP 0.2, 3 votes"));

  const oracleCorrect = items.filter((i) => i.studentCorrect || i.teacherCorrect).length;
  // The oracle router: the student everywhere, plus one bare teacher call exactly where the student was wrong.
  const oracleTeacher = items.reduce((sum, item, i) => sum + (item.studentCorrect ? 0 : teacher.perItem[i]!), 0);
  const oracle: Row = { mode: "oracle", verifier: "perfect router", correct: oracleCorrect, studentMicro: student.studentMicro, teacherMicro: oracleTeacher, studentTokens: 0, teacherTokens: 0, escalated: 0, escalatedWrong: 0 };

  console.log(`GSM8K test, ${items.length} questions, data ${dataDir}`);
  console.log(`Answer-extractor agreement with the CSV's True/False: Mixtral ${(agreement.student * 100).toFixed(1)} %, GPT-4 ${(agreement.teacher * 100).toFixed(1)} % (verifier (a) uses the CSV's True/False)`);
  console.log(`Prices per million tokens: Mixtral-8x7B $0.60 in / $0.60 out; GPT-4-1106 $10 in / $30 out. Tokens = ceil(chars / 4) of the request and of the reply.\n`);
  console.log("| mode | verifier | accuracy | cost total | student (+helper) | teacher | escalation rate (share where student was wrong) | teacher/student tokens |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of [...rows, oracle]) console.log(line(row));
  console.log(`
Replayed: every student answer is Mixtral-8x7B's recorded response, every takeover answer GPT-4-1106's recorded
response (RouteLLM's CSV), served by a replay Brain keyed on the question text, through the real runner and
runWithTeacher. Correctness is the CSV's True/False. Synthetic: the teacher's advice JSON (one fixed text — the
data has none), and the verifier: (a) returns the CSV's True/False for the checked answer; (b) flags a wrong answer
with probability TP and a right one with probability FP, independently per sample (mulberry32, seed 7).
Teacher mode runs with takeoverAfter 0 (a replayed student cannot act on advice) and otherwise the defaults
(verifier on the student's model, spend-ratio cap 0.4 — the first escalation always passes it).
Oracle cost = the student everywhere + a bare teacher call where the student was wrong. Wall ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

await main();
