// The two councils the bench runs: scripted reviewers on faux brains, or one real model behind an
// OpenAI-compatible endpoint reviewing through the same three lenses.
import { createFauxBrain, fauxModel } from "@x/brain-faux";
import { createOpenAIBrain } from "@x/brain-openai";
import type { Brain, Model } from "@x/llm-types";
import { createRunner, type Runner } from "@x/runner";
import type { CouncilReviewer } from "../src/index";
import { PROFILES, scriptedReviewer, type ReviewerProfile } from "./scripted-reviewers";
import type { Snippet } from "./snippets";

/** The price both councils are billed at, per million tokens (a small model's). */
const PRICE = { input: 0.4, output: 1.6, cacheRead: 0, cacheWrite: 0 };

export interface BenchCouncil {
  runner: Runner;
  /** In order: the first is the single reviewer. */
  reviewers: CouncilReviewer[];
  /** Who answers, for the table's heading. */
  source: string;
}

export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

const lensReviewers = (model: (profile: ReviewerProfile) => string): CouncilReviewer[] =>
  PROFILES.map((profile) => ({ name: profile.name, lens: profile.lens, model: model(profile) }));

export function scriptedCouncil(snippets: readonly Snippet[]): BenchCouncil {
  const brains: Brain[] = [];
  const models: Record<string, Model> = {};
  for (const profile of PROFILES) {
    const api = `faux-${profile.name}`;
    brains.push(createFauxBrain(scriptedReviewer(profile, snippets), { api }));
    models[profile.name] = fauxModel({
      id: `scripted-${profile.name}`,
      api,
      baseUrl: `faux://${profile.name}`,
      cost: PRICE,
    });
  }
  return {
    runner: createRunner({ brains, models, roles: { default: PROFILES[0]!.name } }),
    reviewers: lensReviewers((profile) => profile.name),
    source: "scripted reviewers",
  };
}

export function endpointCouncil(endpoint: Endpoint): BenchCouncil {
  const model: Model = {
    id: endpoint.model,
    api: "openai-completions",
    provider: "bench",
    baseUrl: endpoint.baseUrl,
    reasoning: false,
    thinkingOff: false,
    input: ["text"],
    cost: PRICE,
    contextWindow: 128_000,
    maxTokens: 4_096,
  };
  // With no key the brain reads OPENAI_API_KEY, and a local server is sent none.
  const brain = createOpenAIBrain(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {});
  return {
    runner: createRunner({ brains: [brain], models: { endpoint: model }, roles: { default: "endpoint" } }),
    reviewers: lensReviewers(() => "endpoint"),
    source: `${endpoint.model} at ${endpoint.baseUrl} (one model, three lenses)`,
  };
}
