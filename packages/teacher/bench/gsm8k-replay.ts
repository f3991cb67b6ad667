/**
 * The replay side of the GSM8K bench: a runner whose only brain serves RouteLLM's recorded answers
 * (Mixtral-8x7B as the student, GPT-4-1106 as the teacher), and the three ways the bench drives it.
 */
import { defineCatalog, type Context, type Model, customApi } from "@x/llm-types";
import { createRunner, type Runner, type TaskSpec } from "@x/runner";
import {
  MONITOR_PROMPT,
  runWithTeacher,
  TAKEOVER_ADVICE_PROMPT,
  TEACHER_PROMPT,
  VERIFIER_PROMPT,
  type TeacherConfig,
} from "../src/index";
import { extractFinalNumber, type Gsm8kItem } from "./gsm8k-data";
import { ReplayBrain } from "./replay-brain";
import { loadSecondOpinions, SECOND_MODELS } from "./second-opinion-data";

export const PRICES = {
  student: { input: 0.6, output: 0.6 },
  teacher: { input: 10, output: 30 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  // What gpt-3.5-turbo-0613, the model behind the August 2023 recording, cost then: $0.0015 / $0.002 per 1K.
  "gpt-3.5-turbo": { input: 1.5, output: 2 },
};
export const models = defineCatalog({
  student: {
    id: "Mixtral-8x7B-Instruct-v0.1",
    api: customApi("replay"),
    provider: "replay",
    baseUrl: "replay://mixtral",
    contextWindow: 32_768,
    maxTokens: 4096,
    cost: PRICES.student,
  },
  teacher: {
    id: "gpt-4-1106-preview",
    api: customApi("replay"),
    provider: "replay",
    baseUrl: "replay://gpt-4",
    contextWindow: 128_000,
    maxTokens: 4096,
    cost: PRICES.teacher,
  },
  // The second opinions (data/re2-gsm8k): list prices per million tokens, as for the two above.
  "gpt-4o-mini": {
    id: "gpt-4o-mini-2024-07-18",
    api: customApi("replay"),
    provider: "replay",
    baseUrl: "replay://gpt-4o-mini",
    contextWindow: 128_000,
    maxTokens: 16_384,
    cost: PRICES["gpt-4o-mini"],
  },
  "gpt-3.5-turbo": {
    id: "gpt-3.5-turbo-0613",
    api: customApi("replay"),
    provider: "replay",
    baseUrl: "replay://gpt-3.5-turbo",
    contextWindow: 16_385,
    maxTokens: 4096,
    cost: PRICES["gpt-3.5-turbo"],
  },
});
const SECOND_IDS = new Map(SECOND_MODELS.map((name) => [models[name]!.id, name]));
const seconds = new Map(SECOND_MODELS.map((name) => [name, loadSecondOpinions(name)]));
const SOLVE_PROMPT = "Solve the grade-school math problem. Reason step by step and end with the final number.";
/**
 * The recorded data has no teacher advice, so the advice is this fixed text (synthetic, billed at GPT-4
 * prices): the whole reply to an advice ask, or the block a one-call takeover appends to its answer.
 */
const adviceFields = {
  strategy:
    "Re-derive each quantity from the statement, one step at a time, and re-check the arithmetic before answering.",
  correction: "The final number does not follow from the problem statement.",
  nextStep: "Recompute the answer from the given quantities.",
  confidence: 1,
};
export const ADVICE = JSON.stringify({ ...adviceFields, takeover: false });
const TAKEOVER_ADVICE_BLOCK = `\n\n\`\`\`json\n${JSON.stringify({ ...adviceFields, takeover: true })}\n\`\`\``;

/**
 * How a student answer is judged. `code`: the host's `verify` function compares the answer's final
 * number with the GSM8K reference (no model call; it errs where the number extractor does). `exact`:
 * the same check, but answered by the rubric verifier call on the helper model (billed as one).
 * `rubric`: a verifier call that flags wrong answers (by the CSV's True/False) with probability `tpr`
 * and right ones with `fpr`. `deployable`: a `verify` that never sees the reference (shipped checks,
 * second opinions through the same runner), with the rubric off — the replayed rubric reads the key.
 */
export type Judge =
  | { kind: "code" }
  | { kind: "exact" }
  | { kind: "rubric"; tpr: number; fpr: number; seed: number }
  | { kind: "deployable"; verify: (runner: Runner) => NonNullable<TeacherConfig["verify"]> };

/** mulberry32 on a hash of (seed, question, sample): each verdict is reproducible whatever the run order. */
export function uniform(seed: number, index: number, sample: number): number {
  let a =
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
      Math.imul(index + 1, 0xc2b2ae35) ^
      Math.imul(sample + 1, 0x27d4eb2f)) >>>
    0;
  a = (a + 0x6d2b79f5) | 0;
  let t = Math.imul(a ^ (a >>> 15), 1 | a);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Whether a final output is right, by the CSV's recorded True/False for the model whose text it is. */
export function isCorrect(item: Gsm8kItem, output: string): boolean {
  // Trailing whitespace aside: a one-call takeover's answer is what precedes its advice block, trimmed.
  const text = output.trimEnd();
  if (text === item.studentResponse.trimEnd()) return item.studentCorrect;
  if (text === item.teacherResponse.trimEnd()) return item.teacherCorrect;
  throw new Error(`output for question ${item.index} is neither recorded response`);
}

function messageText(content: Context["messages"][number]["content"]): string {
  return typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/** A runner whose brain looks the question up in each request and answers as the model asked. */
export function replayRunner(items: readonly Gsm8kItem[], judge: Judge, spend?: TeacherSpend): Runner {
  const byQuestion = new Map(items.map((item) => [item.question, item]));
  const itemOf = (context: Context): Gsm8kItem => {
    for (const message of context.messages) {
      if (message.role !== "user") continue;
      for (const line of messageText(message.content).split("\n")) {
        const item = byQuestion.get(line.trim());
        if (item) return item;
      }
    }
    throw new Error("no GSM8K question in the request");
  };
  const samples = new Map<number, number>();
  const brain = new ReplayBrain(
    (model: Model, context: Context) => {
      const item = itemOf(context);
      const second = SECOND_IDS.get(model.id);
      if (second !== undefined) {
        // A recorded second opinion: its final answer, billed at the recorded reply's length.
        const recorded = seconds.get(second)!.get(item.testIndex)!;
        const text = recorded.answer === "" ? "(no answer recorded)" : `\\boxed{${recorded.answer}}`;
        return { text, outputTokens: recorded.outputTokens };
      }
      if (model.id === models.teacher!.id) {
        if (context.systemPrompt === TEACHER_PROMPT) return ADVICE;
        // A takeover asked for the advice block ends its recorded answer with the synthetic one.
        return context.systemPrompt?.includes(TAKEOVER_ADVICE_PROMPT)
          ? item.teacherResponse + TAKEOVER_ADVICE_BLOCK
          : item.teacherResponse;
      }
      if (context.systemPrompt === MONITOR_PROMPT) return '{"stuck": true, "reason": "replay: no tools are used"}';
      if (context.systemPrompt !== VERIFIER_PROMPT) return item.studentResponse;
      const checked = messageText(context.messages.at(-1)?.content ?? "").split("Answer to check:\n")[1] ?? "";
      let pass: boolean;
      if (judge.kind !== "rubric") pass = extractFinalNumber(checked) === item.reference;
      else {
        const n = samples.get(item.index) ?? 0;
        samples.set(item.index, n + 1);
        pass = !(uniform(judge.seed, item.index, n) < (isCorrect(item, checked) ? judge.fpr : judge.tpr));
      }
      return JSON.stringify({ pass, reason: pass ? "the answer follows" : "the final number looks wrong" });
    },
    (model, context, message) => {
      if (!spend) return;
      const { input, output, total } = message.usage.cost;
      if (model.id !== models.teacher!.id) {
        const helper =
          context.systemPrompt === VERIFIER_PROMPT ||
          context.systemPrompt === MONITOR_PROMPT ||
          SECOND_IDS.has(model.id);
        if (helper) spend.helperMicro += total;
        return;
      }
      spend.teacherInputMicro += input;
      spend.teacherOutputMicro += output;
      if (context.systemPrompt === TEACHER_PROMPT) spend.adviceMicro += total;
      else spend.takeoverMicro += total;
    },
  );
  return createRunner({ brains: [brain], models, roles: { advisor: "teacher" } });
}

/** Where the money went: the teacher's spend by call kind and by direction, and the helper's calls. */
export interface TeacherSpend {
  adviceMicro: number;
  takeoverMicro: number;
  teacherInputMicro: number;
  teacherOutputMicro: number;
  /** Verifier and monitor calls on the student's model (inside the student's `stats`). */
  helperMicro: number;
}

export interface Tally {
  correct: number;
  studentMicro: number;
  teacherMicro: number;
  studentTokens: number;
  teacherTokens: number;
  escalated: number;
  /** Teacher runs: advice asks plus takeovers. */
  teacherCalls: number;
  /** Escalated questions the student had in fact got wrong. */
  escalatedWrong: number;
  /** Takeovers whose answer failed the host's verify (status `failed`, `output_invalid`); of them, right ones. */
  unverified: number;
  unverifiedRight: number;
  spend: TeacherSpend;
  /** Per question: cost in micro-dollars and correctness, in item order. */
  perItem: Array<{ micro: number; correct: boolean; escalated: boolean }>;
}

const emptyTally = (): Tally => ({
  correct: 0,
  studentMicro: 0,
  teacherMicro: 0,
  studentTokens: 0,
  teacherTokens: 0,
  escalated: 0,
  teacherCalls: 0,
  escalatedWrong: 0,
  unverified: 0,
  unverifiedRight: 0,
  spend: { adviceMicro: 0, takeoverMicro: 0, teacherInputMicro: 0, teacherOutputMicro: 0, helperMicro: 0 },
  perItem: [],
});
const specFor = (item: Gsm8kItem, model: string): TaskSpec => ({
  model,
  systemPrompt: SOLVE_PROMPT,
  objective: item.question,
  maxTurns: 1,
});

/** One model alone, one plain runner task per question. */
export async function runSingle(items: readonly Gsm8kItem[], model: "student" | "teacher"): Promise<Tally> {
  const runner = replayRunner(items, { kind: "exact" });
  const tally = emptyTally();
  for (const item of items) {
    const result = await runner.runTask(specFor(item, model));
    const correct = isCorrect(item, result.output);
    if (correct) tally.correct++;
    tally.perItem.push({ micro: result.stats.costMicroUsd, correct, escalated: false });
    if (model === "student") {
      tally.studentMicro += result.stats.costMicroUsd;
      tally.studentTokens += result.stats.tokens;
    } else {
      tally.teacherMicro += result.stats.costMicroUsd;
      tally.teacherTokens += result.stats.tokens;
    }
  }
  return tally;
}

/** The host's exact-answer check, as a `verify` function: the final number against the reference. */
export function exactAnswerCheck(items: readonly Gsm8kItem[]): NonNullable<TeacherConfig["verify"]> {
  const references = new Map(items.map((item) => [item.question, item.reference]));
  return ({ task, output }) => extractFinalNumber(output) === references.get(task);
}

/**
 * Teacher mode per question, with `config` on top of the defaults (each question is a one-shot task:
 * no tools). A `code` judge adds the exact-answer `verify` function.
 */
export async function runTeacherMode(
  items: readonly Gsm8kItem[],
  judge: Judge,
  config: TeacherConfig = {},
): Promise<Tally> {
  const tally = emptyTally();
  const runner = replayRunner(items, judge, tally.spend);
  const full: TeacherConfig =
    judge.kind === "code"
      ? { ...config, verify: exactAnswerCheck(items) }
      : judge.kind === "deployable"
        ? { verifyOutput: false, ...config, verify: judge.verify(runner) }
        : config;
  for (const item of items) {
    const result = await runWithTeacher(runner, specFor(item, "student"), full);
    const correct = isCorrect(item, result.output);
    const escalated = result.escalations.length > 0;
    if (correct) tally.correct++;
    const teacherMicro = result.teacherStats.costMicroUsd ?? 0;
    tally.studentMicro += result.stats.costMicroUsd;
    tally.studentTokens += result.stats.tokens;
    tally.teacherMicro += teacherMicro;
    tally.teacherTokens += result.teacherStats.tokens;
    tally.teacherCalls += result.teacherStats.tasks;
    tally.perItem.push({ micro: result.stats.costMicroUsd + teacherMicro, correct, escalated });
    if (result.terminal.code === "output_invalid") {
      tally.unverified++;
      if (correct) tally.unverifiedRight++;
    }
    if (escalated) {
      tally.escalated++;
      if (!item.studentCorrect) tally.escalatedWrong++;
    }
  }
  return tally;
}
