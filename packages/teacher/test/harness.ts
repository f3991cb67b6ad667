import {
  createFauxBrain,
  fauxModel,
  fauxText,
  fauxToolCall,
  type FauxCall,
  type FauxRequestContext,
  type FauxResponse,
} from "@x/brain-faux";
import type { Brain, Model, Roles } from "@x/llm-types";
import { createRunner, defineTool, type RunnerDeps } from "@x/runner";
import { z } from "zod";
import { MONITOR_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "../src/index";

const price = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0 });
export const student = fauxModel({ id: "student", baseUrl: "faux://student", cost: price(1, 1), maxTokens: 1000 });
export const teacher = fauxModel({ id: "teacher", baseUrl: "faux://teacher", cost: price(10, 30), maxTokens: 1000 });
export const helper = fauxModel({ id: "helper", baseUrl: "faux://helper", cost: price(0.5, 0.5), maxTokens: 1000 });

/** Who a model call was for, read from the request the way a provider would see it. */
export type Seat = "student" | "teacher" | "takeover" | "verifier" | "monitor";
type Reply = FauxResponse | ((ctx: FauxRequestContext) => FauxResponse);

export interface SetupOptions {
  /** Replies used when a seat's queue is empty. */
  fallback?: Partial<Record<Seat, Reply>>;
  /** Custom instruction texts in use, so their calls are recognised. */
  prompts?: { teacher?: string; verifier?: string; monitor?: string };
  /** Extra brains, models and roles (e.g. an auto-mode classifier). */
  brains?: Brain[];
  models?: Record<string, Model>;
  roles?: Roles;
  deps?: Partial<RunnerDeps>;
}

/** One faux brain behind every model, with a reply queue per seat; every request is recorded. */
export function setup(scripts: Partial<Record<Seat, Reply[]>> = {}, options: SetupOptions = {}) {
  const queues: Record<Seat, Reply[]> = { student: [], teacher: [], takeover: [], verifier: [], monitor: [] };
  for (const [seat, replies] of Object.entries(scripts)) queues[seat as Seat].push(...replies);
  const prompts = {
    teacher: options.prompts?.teacher ?? TEACHER_PROMPT,
    verifier: options.prompts?.verifier ?? VERIFIER_PROMPT,
    monitor: options.prompts?.monitor ?? MONITOR_PROMPT,
  };
  const seatOf = (call: { model: { id: string }; context: { systemPrompt?: string } }): Seat => {
    if (call.context.systemPrompt === prompts.verifier) return "verifier";
    if (call.context.systemPrompt === prompts.monitor) return "monitor";
    if (call.model.id === teacher.id) return call.context.systemPrompt === prompts.teacher ? "teacher" : "takeover";
    return "student";
  };
  const brain = createFauxBrain((ctx) => {
    const seat = seatOf(ctx);
    const reply = queues[seat].shift() ?? options.fallback?.[seat];
    if (reply === undefined) throw new Error(`no scripted reply for the ${seat}`);
    return typeof reply === "function" ? reply(ctx) : reply;
  });
  const runner = createRunner({
    brains: [brain, ...(options.brains ?? [])],
    models: { student, teacher, helper, ...options.models },
    roles: { default: "student", advisor: "teacher", ...options.roles },
    retry: { maxRetries: 0 },
    ...options.deps,
  });
  const calls = (seat: Seat): FauxCall[] => brain.calls.filter((c) => seatOf(c) === seat);
  return { brain, runner, calls, queues };
}

export const advice = (fields: Record<string, unknown>, usage?: { input: number; output: number }): FauxResponse =>
  fauxText(JSON.stringify({ takeover: false, confidence: 2, ...fields }), usage ? { usage } : {});
export const pass = (usage?: { input: number; output: number }) =>
  fauxText('{"pass": true, "reason": "looks right"}', usage ? { usage } : {});
export const fail = (reason = "the total is wrong", usage?: { input: number; output: number }) =>
  fauxText(JSON.stringify({ pass: false, reason }), usage ? { usage } : {});
export const stuck = (value: boolean) =>
  fauxText(JSON.stringify({ stuck: value, reason: value ? "same error each time" : "it is learning" }));

/**
 * A student turn calling `edit` with fresh arguments each time (so the runner's identical-call guard stays out of it).
 */
export const editCall = (ctx: FauxRequestContext): FauxResponse =>
  fauxToolCall("edit", { path: `file-${ctx.callIndex}` });

/** `edit` always fails; `read` always works. */
export function tools() {
  const edits: unknown[] = [];
  const edit = defineTool({
    name: "edit",
    description: "edits a file",
    input: z.object({ path: z.string() }),
    execute: (args) => {
      edits.push(args);
      throw new Error(`permission denied: ${args.path}`);
    },
  });
  const read = defineTool({
    name: "read",
    description: "reads a file",
    input: z.object({ path: z.string() }),
    readOnly: true,
    execute: (args) => `contents of ${args.path}`,
  });
  return { edit, read, edits };
}

/**
 * A spec as a multi-turn tool run (it offers the student `read`), where the seed's defaults apply
 * unchanged; a spec without tools is a one-shot task with defaults of its own.
 */
export const toolRun = <T extends { objective: string }>(spec: T) => ({ ...spec, tools: [tools().read] });
