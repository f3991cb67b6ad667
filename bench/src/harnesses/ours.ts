// Our runner: @x/runner with @x/brain-openai over HTTP; in-process, @x/brain-faux (our own fake,
// streaming real deltas through the same TurnBuilder the real brains use).
import { createFauxBrain, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import { createOpenAIBrain } from "@x/brain-openai";
import type { Brain } from "@x/llm-types";
import { API_KEY, FINAL_TEXT, TOOL_NAME, TURNS, keyFor, usageFor } from "../workload";
import { ourTask } from "./ours-task";
import type { Harness } from "./types";

/** Scripted like the server: the turn is the count of tool results in the context. */
function fauxResponder({ context }: FauxRequestContext) {
  const k = context.messages.filter((m) => m.role === "toolResult").length + 1;
  const u = usageFor(k, k >= TURNS);
  const usage = { input: u.prompt_tokens, output: u.completion_tokens };
  return k < TURNS
    ? fauxToolCall(TOOL_NAME, { key: keyFor(k) }, { id: `call_${k}`, usage })
    : fauxText(FINAL_TEXT, { usage });
}

export const ours: Harness = oursWith({ guard: true });

/** Diagnostic row (`--only=ours-noguard`): the same with the brains' repetition guard off. */
export const oursNoGuard: Harness = oursWith({ guard: false });

function oursWith({ guard }: { guard: boolean }): Harness {
  return {
    label: guard ? "@x/runner + @x/brain-openai" : "@x/runner + @x/brain-openai, guard off",
    packages: ["@x/runner", "@x/brain-openai", "@x/brain-faux"],
    async setup(mode, { baseURL }) {
      const inproc = mode === "inproc";
      const api = inproc ? "faux" : "openai-completions";
      const off = guard ? {} : { guard: false as const };
      const brain: Brain = inproc
        ? // Its responder keeps nothing of the context: it borrows it, as @x/brain-openai does.
          createFauxBrain(fauxResponder, { ...off, recordCalls: false, borrowsContext: true })
        : createOpenAIBrain({ apiKey: API_KEY, ...off });
      return ourTask(brain, api, inproc ? "faux://local" : baseURL);
    },
  };
}
