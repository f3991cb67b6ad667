import type { ToolCall } from "@x/llm-types";
import type { AutoModeOutcome } from "@x/classifier-ladder";
import { canonicalJson } from "../vocabulary/canonical-json";

/**
 * Classifications started while the model still streams its turn, one per gated call whose
 * arguments are whole: the classifier works while the model goes on, and the calls of one turn are
 * judged at once instead of one after another. Nothing runs on them early — the gate takes a
 * call's outcome when it reaches that call, in order, and reports it then.
 */
export interface EarlyRulings {
  /** Starts classifying `call` (once per call id); `classify` gets the signal that cancels it. */
  start(call: ToolCall, classify: (signal: AbortSignal) => Promise<AutoModeOutcome>): void;
  /** The outcome started for this call — the same id, name and arguments — or undefined. */
  take(call: ToolCall): Promise<AutoModeOutcome> | undefined;
  /**
   * Cancels what no gate took (a failed, retried or abandoned turn) and hands each outcome to
   * `spent` once it settles, so a classification cut short is still counted for what it used.
   */
  drop(spent: (outcome: AutoModeOutcome) => void): Promise<void>;
}

interface Started {
  key: string;
  outcome: Promise<AutoModeOutcome>;
  controller: AbortController;
}

const callKey = (call: ToolCall) => canonicalJson({ name: call.name, arguments: call.arguments });

/** `run` is the run's own signal: aborting the run cancels every early classification with it. */
export function createEarlyRulings(run: AbortSignal): EarlyRulings {
  const started = new Map<string, Started>();
  return {
    start(call, classify) {
      if (started.has(call.id) || run.aborted) return;
      const controller = new AbortController();
      const signal = AbortSignal.any([run, controller.signal]);
      started.set(call.id, { key: callKey(call), outcome: classify(signal), controller });
    },
    take(call) {
      const found = started.get(call.id);
      // Another call under the same id (a brain that reuses ids) is judged anew; the stale one is dropped.
      if (!found || found.key !== callKey(call)) return undefined;
      started.delete(call.id);
      return found.outcome;
    },
    async drop(spent) {
      const left = [...started.values()];
      started.clear();
      for (const entry of left) entry.controller.abort(new Error("the turn that asked for this classification ended"));
      for (const outcome of await Promise.all(left.map((entry) => entry.outcome))) spent(outcome);
    },
  };
}
