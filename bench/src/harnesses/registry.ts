import type { Harness } from "./types";

// Loaded lazily so each child process imports one library only: its RSS and heap are that library's.
export const harnesses: Record<string, () => Promise<Harness>> = {
  floor: async () => (await import("./floor")).floor,
  limit: async () => (await import("./limit")).limit,
  ours: async () => (await import("./ours")).ours,
  pi: async () => (await import("./pi")).pi,
  "ai-generate": async () => (await import("./ai")).aiGenerate,
  "ai-stream": async () => (await import("./ai")).aiStream,
  agents: async () => (await import("./agents")).agents,
  langgraph: async () => (await import("./langgraph")).langgraph,
  mastra: async () => (await import("./mastra")).mastra,
  "anthropic-floor": async () => (await import("./anthropic")).anthropicFloor,
  "ours-anthropic": async () => (await import("./anthropic")).oursAnthropic,
  "ours-noguard": async () => (await import("./ours")).oursNoGuard,
  "floor-signal": async () => (await import("./floor")).floorSignal,
  "floor-json": async () => (await import("./floor")).floorJson,
};

/** Rows of a default run; other keys are diagnostics to ask for with `--only`. */
export const harnessOrder = [
  "floor",
  "limit",
  "ours",
  "pi",
  "ai-generate",
  "ai-stream",
  "agents",
  "langgraph",
  "mastra",
  "anthropic-floor",
  "ours-anthropic",
];
