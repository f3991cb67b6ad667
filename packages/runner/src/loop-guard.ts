import type { ToolCall } from "@x/llm-types";
import { canonicalJson } from "./canonical-json";

/** What the guard says about the call it was just shown. */
export type LoopGuardVerdict = "ok" | "warn" | "stuck";

/** Serialisable state, so a parked run keeps counting where it left off. */
export interface LoopGuardState {
  lastKey?: string;
  streak: number;
}

/**
 * Identical-call loop guard: the same tool with the same arguments `maxRepeats` times in a row
 * earns the model a note (`warn`); one more identical call is `stuck`. Any different call resets it.
 */
export function createLoopGuard(maxRepeats: number, state: LoopGuardState = { streak: 0 }) {
  const s: LoopGuardState = { ...state };
  return {
    observe(call: Pick<ToolCall, "name" | "arguments">): LoopGuardVerdict {
      const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
      s.streak = key === s.lastKey ? s.streak + 1 : 1;
      s.lastKey = key;
      if (s.streak > maxRepeats) return "stuck";
      if (s.streak === maxRepeats) return "warn";
      return "ok";
    },
    state(): LoopGuardState {
      return { ...s };
    },
  };
}

export type LoopGuard = ReturnType<typeof createLoopGuard>;

export function loopGuardNote(name: string, times: number): string {
  return [
    `\n\n[runner note] You have called "${name}" with identical arguments`,
    `${times} times in a row; the result will not change. Use what you have`,
    "or try a different approach — another identical call ends the run.",
  ].join(" ");
}
