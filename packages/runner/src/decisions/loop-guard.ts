import type { ToolCall } from "@x/llm-types";
import { canonicalJson } from "../vocabulary/canonical-json";
import type { LoopGuard, LoopGuardState, LoopGuardVerdict } from "../state/run-parts";

/**
 * Identical-call loop guard: the same tool with the same arguments `maxRepeats` times in a row
 * earns the model a note (`warn`); one more identical call is `stuck`. Any different call resets it.
 */
export function createLoopGuard(maxRepeats: number, state: LoopGuardState = { streak: 0 }): LoopGuard {
  // Not `{ ...state }`: on Node 20 `lastKey`, added to a spread copy, would cost a new hidden class.
  const s: LoopGuardState = { streak: state.streak };
  if (state.lastKey !== undefined) s.lastKey = state.lastKey;
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

export function loopGuardNote(name: string, times: number): string {
  return [
    `\n\n[runner note] You have called "${name}" with identical arguments`,
    `${times} times in a row; the result will not change. Use what you have`,
    "or try a different approach — another identical call ends the run.",
  ].join(" ");
}
