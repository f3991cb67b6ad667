import { createFauxBrain, fauxModel, type FauxResponder, type FauxScriptItem } from "@x/brain-faux";
import { addUsage, emptyUsage, type Brain, type EngineNotice, type TraceFrame, type Usage } from "@x/llm-types";
import { z } from "zod";
import { createRunner, defineSubRunTool, defineTool } from "../src/index";
import type { Tool } from "../src/vocabulary/define-tool";
import type { Permission, RunnerDeps } from "../src/vocabulary/types";
import { fakeClock } from "./harness";

const price = { input: 1, output: 4, cacheRead: 0, cacheWrite: 0 };
/** The parent's model, the children's model and the classifier seat: three brains, so scripts do not interleave. */
export const boss = fauxModel({ id: "boss", maxTokens: 1000, cost: price });
export const kid = fauxModel({ id: "kid", api: "faux-kid", baseUrl: "faux://kid", maxTokens: 1000, cost: price });
export const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls", cost: price });

/** Wraps a brain so every model call's final usage is summed: what the provider would bill. */
export function metered(brain: Brain): Brain & { billed: () => Usage; count: () => number } {
  let billed = emptyUsage();
  let count = 0;
  return {
    api: brain.api,
    stream(model, context, request) {
      const stream = brain.stream(model, context, request);
      const result = stream.result().then((message) => {
        billed = addUsage(billed, message.usage);
        count += 1;
        return message;
      });
      return Object.assign(stream, { result: () => result });
    },
    billed: () => billed,
    count: () => count,
  };
}

export function treeSetup(
  scripts: {
    boss: FauxScriptItem[] | FauxResponder;
    kid?: FauxScriptItem[] | FauxResponder;
    cls?: FauxScriptItem[] | FauxResponder;
  },
  deps: Partial<RunnerDeps> = {},
) {
  const brains = {
    boss: createFauxBrain(scripts.boss),
    kid: createFauxBrain(scripts.kid ?? [], { api: "faux-kid" }),
    cls: createFauxBrain(scripts.cls ?? [], { api: "faux-cls" }),
  };
  const meters = [metered(brains.boss), metered(brains.kid), metered(brains.cls)];
  const notices: EngineNotice[] = [];
  const frames: TraceFrame[] = [];
  const runner = createRunner({
    brains: meters,
    models: { boss, kid, cls },
    roles: { default: "boss", classifier: "cls" },
    clock: fakeClock(),
    onNotice: (n) => notices.push(n),
    tracer: { frame: (f) => frames.push(f) },
    ...deps,
  });
  const billed = () => meters.reduce((sum, m) => addUsage(sum, m.billed()), emptyUsage());
  const modelCalls = () => meters.reduce((sum, m) => sum + m.count(), 0);
  return { runner, brains, notices, frames, billed, modelCalls };
}

/** A tool that records what it was called with. */
export function spy(name: string, options: { permission?: Permission } = {}) {
  const calls: string[] = [];
  const tool = defineTool({
    name,
    description: `${name} a path`,
    input: z.object({ path: z.string() }),
    ...options,
    execute: ({ path }) => {
      calls.push(path);
      return `${name} done: ${path}`;
    },
  });
  return { tool, calls };
}

/** `delegate({ task })`: a child on the `kid` model with the given tools. */
export function delegate(tools: readonly Tool[], extra: { name?: string; budgetShare?: number } = {}): Tool {
  return defineSubRunTool({
    name: extra.name ?? "delegate",
    description: "Hand a self-contained task to a helper agent",
    input: z.object({ task: z.string() }),
    task: ({ task }) => ({
      objective: task,
      model: "kid",
      tools,
      ...(extra.budgetShare !== undefined ? { budgetShare: extra.budgetShare } : {}),
    }),
  });
}

/** The classifier's request text (its one user message). */
export function classifierAsked(ctx: { context: { messages: readonly { content: unknown }[] } }): string {
  return JSON.stringify(ctx.context.messages.map((m) => m.content));
}
