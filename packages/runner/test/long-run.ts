// A long scripted coding run on faux brains, for the compaction tests and bench: the agent reads
// files, runs tests and edits code for as many turns as asked, then answers. The main brain refuses
// a request larger than its model's window with `context_overflow`, as a provider does.
import { estimateContextTokens } from "@x/brain-kit";
import { createFauxBrain, fauxError, fauxModel, fauxText, fauxToolCall, type FauxResponse } from "@x/brain-faux";
import type { Context, Message, Model } from "@x/llm-types";
import { z } from "zod";
import { defineTool, type Tool } from "../src/index";

export const OBJECTIVE = "Fix the failing date parser in src/dates.ts — keep the public API exactly as it is.";

/** The three tools of a coding agent, with outputs sized like real ones. */
export function codingTools(resultChars = 1_200): Tool[] {
  const body = (label: string, n: number) =>
    `${label} ${n}\n${"const value = compute(input); // line of code\n".repeat(Math.ceil(resultChars / 48))}`.slice(
      0,
      resultChars,
    );
  return [
    defineTool({
      name: "read_file",
      description: "Reads a file",
      input: z.object({ path: z.string() }),
      readOnly: true,
      execute: ({ path }) => body(`// ${path}`, path.length),
    }),
    defineTool({
      name: "run_tests",
      description: "Runs the test suite",
      input: z.object({ filter: z.string() }),
      execute: ({ filter }) => body(`FAIL ${filter}`, filter.length),
    }),
    defineTool({
      name: "edit_file",
      description: "Edits a file",
      input: z.object({ path: z.string(), patch: z.string() }),
      execute: ({ path }) => `edited ${path}`,
    }),
  ];
}

/** An edit's patch: a hunk header, then `chars` characters of code when the run writes big patches. */
function patch(i: number, chars: number): string {
  const header = `@@ -${i} +${i} @@`;
  return chars === 0
    ? header
    : `${header}\n${`+const v${i} = compute(input); // changed line\n`.repeat(Math.ceil(chars / 44))}`;
}

const STEPS = [
  (i: number) => ({ name: "read_file", arguments: { path: `src/module-${i}.ts` } }),
  (i: number) => ({ name: "run_tests", arguments: { filter: `dates-${i}` } }),
  (i: number, chars: number) => ({
    name: "edit_file",
    arguments: { path: `src/module-${i}.ts`, patch: patch(i, chars) },
  }),
];

/** How many main-model requests the provider refused as too long. */
export interface LongRunBrains {
  brains: ReturnType<typeof createFauxBrain>[];
  overflows: () => number;
  mainContexts: Context[];
}

export interface LongRunOptions {
  /** Main-model calls the provider refuses as too long, whatever their size. */
  overflowAt?: number[];
  /** One call of another tool in the middle of the script (a gated one, say), with its arguments. */
  interject?: { callIndex: number; tool: string; arguments?: Record<string, unknown> };
  /** Characters of code in each edit's patch (0: a bare hunk header). */
  patchChars?: number;
}

/** The main brain plays `turns` tool turns then answers; the summary brain writes short summaries. */
export function longRunBrains(turns: number, options: LongRunOptions = {}): LongRunBrains {
  let overflows = 0;
  const mainContexts: Context[] = [];
  let played = 0;
  const forced = new Set(options.overflowAt ?? []);
  const main = createFauxBrain(({ model, context, callIndex }): FauxResponse => {
    mainContexts.push(context);
    const input = estimateContextTokens(context);
    if (input > model.contextWindow || forced.delete(callIndex)) {
      overflows += input > model.contextWindow ? 1 : 0;
      return fauxError("context_overflow", `prompt is too long: ${input} tokens > ${model.contextWindow}`);
    }
    const usage = { input, output: 30 };
    const { interject } = options;
    if (interject?.callIndex === callIndex) return fauxToolCall(interject.tool, interject.arguments ?? {}, { usage });
    if (played >= turns) return fauxText("Fixed: the parser now accepts ISO dates; the API is unchanged.", { usage });
    const step = STEPS[played % STEPS.length]!(played, options.patchChars ?? 0);
    played += 1;
    return {
      content: [
        { type: "text", text: `Step ${played}.` },
        { type: "toolCall", ...step },
      ],
      usage,
    };
  });
  const summary = createFauxBrain(
    ({ context }) => {
      const seen = (context.messages[0]?.content as string).match(/<tool_call /g)?.length ?? 0;
      return fauxText(`Read modules, ran the date tests and edited code (${seen} more calls folded).`, {
        usage: { input: estimateContextTokens(context), output: 40 },
      });
    },
    { api: "faux-sum" },
  );
  return { brains: [main, summary], overflows: () => overflows, mainContexts };
}

/** A main model with a small window, and a cheap summary model. */
export function longRunModels(contextWindow: number): { main: Model; sum: Model } {
  return {
    main: fauxModel({
      id: "main",
      contextWindow,
      maxTokens: 500,
      cost: { input: 1, output: 4, cacheRead: 0.1, cacheWrite: 1.25 },
    }),
    sum: fauxModel({
      id: "sum",
      api: "faux-sum",
      baseUrl: "faux://sum",
      contextWindow: 64_000,
      maxTokens: 1000,
      cost: { input: 0.1, output: 0.4, cacheRead: 0, cacheWrite: 0 },
    }),
  };
}

/** Every tool result in `messages` answers a call made before it, and every call is answered. */
export function pairsValid(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") open.add(b.id);
    if (m.role === "toolResult" && !open.delete(m.toolCallId)) return false;
  }
  return open.size === 0;
}
