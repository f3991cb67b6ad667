import { createFauxBrain, fauxModel, fauxText, type FauxResponder, type FauxScriptItem } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { createRunner, type RunEvent, type RunnerDeps, type TaskSpec } from "@x/runner";

export const main = fauxModel({ id: "main", maxTokens: 1000 });
export const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });

/** Auto mode's reply: the call may run. */
export const ALLOW = fauxText("<block>no</block>");
/** Auto mode's reply: the call is refused. */
export const BLOCK = (why: string) => fauxText(`<block>yes</block><reason>${why}</reason>`);

/** A runner on faux brains: the main model's script and a scripted classifier. */
export function autoRunner(
  mainScript: FauxScriptItem[] | FauxResponder,
  clsScript: FauxScriptItem[] | FauxResponder = [],
  deps: Partial<RunnerDeps> = {},
) {
  const brain = createFauxBrain(mainScript);
  const classifier = createFauxBrain(clsScript, { api: "faux-cls" });
  const runner = createRunner({
    brains: [brain, classifier],
    models: { main, cls },
    roles: { default: "main", classifier: "cls" },
    ...deps,
  });
  return { runner, brain, classifier };
}

/** Streams a task and collects its events. */
export async function streamAll(runner: ReturnType<typeof createRunner>, spec: TaskSpec, signal?: AbortSignal) {
  const stream = runner.streamTask(spec, signal ? { signal } : {});
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

/** Tool results of a run, by tool name. */
export function toolResults(messages: readonly Message[]) {
  return messages.flatMap((m) => (m.role === "toolResult" ? [m] : []));
}

export function resultText(message: { content: ReadonlyArray<{ type: string; text?: string }> }): string {
  return message.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}
