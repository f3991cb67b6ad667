import { createFauxBrain, fauxModel, type FauxResponder, type FauxScriptItem } from "@x/brain-faux";
import { emptyUsage, type AssistantMessage, type EngineNotice, type Message, type TraceFrame } from "@x/llm-types";
import { z } from "zod";
import { createMemoryParkLedger, createRunner, defineTool } from "../src/index";
import type { Clock, RunnerDeps } from "../src/vocabulary/types";

export const main = fauxModel({ id: "main", maxTokens: 1000 });
export const backup = fauxModel({ id: "backup", baseUrl: "faux://backup", maxTokens: 1000 });

/** A clock whose sleeps pass instantly and are recorded. */
export function fakeClock(start = 1_000_000): Clock & { sleeps: number[]; advance(ms: number): void } {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new Error("aborted");
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
    advance: (ms) => {
      t += ms;
    },
  };
}

export function setup(script: FauxScriptItem[] | FauxResponder = [], deps: Partial<RunnerDeps> = {}) {
  const brain = createFauxBrain(script);
  const notices: EngineNotice[] = [];
  const frames: TraceFrame[] = [];
  const clock = fakeClock();
  const runner = createRunner({
    brains: [brain],
    models: { main, backup },
    clock,
    // These runners resume their own parks: at-most-once per process is what the tests need.
    parkLedger: createMemoryParkLedger(),
    onNotice: (n) => notices.push(n),
    tracer: { frame: (f) => frames.push(f) },
    ...deps,
  });
  return { brain, runner, notices, frames, clock };
}

/** A tool that records each call it receives. */
export function recorder(name = "echo", options: { readOnly?: boolean } = {}) {
  const calls: Array<Record<string, unknown>> = [];
  const tool = defineTool({
    name,
    description: `records ${name}`,
    input: z.object({ text: z.string() }),
    ...options,
    execute: (args) => {
      calls.push(args);
      return `${name}:${args.text}`;
    },
  });
  return { tool, calls };
}

export function roles(messages: readonly Message[]): string[] {
  return messages.map((m) => m.role);
}

export function texts(messages: readonly Message[]): string[] {
  return messages.map((m) => {
    if (m.role === "user") return typeof m.content === "string" ? m.content : "";
    if (m.role === "toolResult") return m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return m.content.map((c) => (c.type === "text" ? c.text : c.type === "toolCall" ? `call:${c.name}` : "")).join("");
  });
}

/** A finished assistant turn of plain text on the faux main model, for a host's history. */
export function answered(text: string): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "faux",
    provider: "faux",
    model: "main",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 0,
  };
}
