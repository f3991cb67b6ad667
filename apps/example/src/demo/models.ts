import { fauxModel, createFauxBrain, type FauxBrain, type FauxResponse } from "@x/brain-faux";
import type { Model } from "@x/llm-types";
import { classifierPolicy, studentModelPolicy, teacherPolicy, type Policy, type ScriptedReply } from "./policies";
import { REVIEWER_POLICIES } from "./reviewer-policies";

const common = {
  provider: "x-demo",
  baseUrl: "faux://x-agent-demo",
  reasoning: false,
  input: ["text" as const],
  contextWindow: 128_000,
  maxTokens: 4_096,
};

/**
 * The demo's three scripted models, priced like a small, a large and a tiny hosted model so the
 * cost column means something. Catalog keys: `student`, `teacher`, `classifier`.
 */
export const DEMO_MODELS: Readonly<Record<"student" | "teacher" | "classifier", Model>> = {
  student: fauxModel({
    ...common,
    id: "scripted-student-mini",
    name: "scripted student (small)",
    cost: { input: 0.4, output: 1.6, cacheRead: 0, cacheWrite: 0 },
  }),
  teacher: fauxModel({
    ...common,
    id: "scripted-teacher-max",
    name: "scripted teacher (large)",
    cost: { input: 5, output: 25, cacheRead: 0, cacheWrite: 0 },
  }),
  classifier: fauxModel({
    ...common,
    id: "scripted-classifier-nano",
    name: "scripted classifier (tiny)",
    cost: { input: 0.1, output: 0.4, cacheRead: 0, cacheWrite: 0 },
  }),
};

export type ReviewLens = keyof typeof REVIEWER_POLICIES;

/** The review scenario's council: one scripted model per lens, each priced like the student's small model. */
export const REVIEWER_MODELS: Readonly<Record<ReviewLens, Model>> = {
  security: reviewerModel("security"),
  correctness: reviewerModel("correctness"),
  tests: reviewerModel("tests"),
};

function reviewerModel(lens: ReviewLens): Model {
  return fauxModel({
    ...common,
    id: `scripted-reviewer-${lens}`,
    name: `scripted ${lens} reviewer (small)`,
    cost: { input: 0.4, output: 1.6, cacheRead: 0, cacheWrite: 0 },
  });
}

/** The whole scripted catalog: the three role models, and each reviewer under `reviewer-<lens>`. */
export const DEMO_CATALOG: Readonly<Record<string, Model>> = {
  ...DEMO_MODELS,
  ...Object.fromEntries(Object.entries(REVIEWER_MODELS).map(([lens, model]) => [`reviewer-${lens}`, model])),
};

const POLICIES: Record<string, Policy> = {
  [DEMO_MODELS.student.id]: studentModelPolicy,
  [DEMO_MODELS.teacher.id]: teacherPolicy,
  [DEMO_MODELS.classifier.id]: classifierPolicy,
  ...Object.fromEntries(
    Object.entries(REVIEWER_MODELS).map(([lens, model]) => [model.id, REVIEWER_POLICIES[lens as ReviewLens]]),
  ),
};

function toFaux(reply: ScriptedReply, delayMs: number): FauxResponse {
  const content: NonNullable<FauxResponse["content"]> = [];
  if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls ?? [])
    content.push({ type: "toolCall", name: call.name, arguments: call.arguments });
  return delayMs > 0 ? { content, delayMs } : { content };
}

/**
 * One faux brain for the `faux` wire, answering each call with the policy of the model it is
 * asked on. `thinkMs` pauses before each reply so a person can follow (the spinner turns meanwhile).
 */
export function demoBrain(options: { thinkMs: number }): FauxBrain {
  return createFauxBrain(({ model, context }) => {
    const policy = POLICIES[model.id];
    if (!policy) throw new Error(`no scripted policy for model ${model.id}`);
    return toFaux(policy(context), options.thinkMs);
  });
}
