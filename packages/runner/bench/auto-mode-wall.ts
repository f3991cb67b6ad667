// What auto mode adds to a turn's wall time: the model streams a turn of about 2 s holding two gated
// calls; the classifier answers each after 600 ms. Three ways: the calls allowed outright (no
// classifier), auto mode as the runner does it (each call classified as soon as its arguments are
// whole, while the model streams on, the calls of a turn at once), and — for reference — what one
// classifier latency per call after the stream would add (2 × 600 ms). Prints a table; asserts nothing.
import { createFauxBrain, fauxDelay, fauxModel, fauxText, type FauxResponse } from "@x/brain-faux";
import { z } from "zod";
import { createRunner, defineTool, type Permission } from "../src/index";

const CLASSIFIER_MS = Number(process.env.BENCH_CLASSIFIER_MS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const main = fauxModel({ id: "main", maxTokens: 2_000 });
const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });

/** About 2 s of streaming: prose, a call, more prose, a second call, a closing line. */
const prose = (words: number) => "the agent explains what it is about to do next ".repeat(words);
const turn: FauxResponse = {
  content: [
    { type: "text", text: prose(12) },
    { type: "toolCall", name: "shell", arguments: { command: "npm test" }, id: "call-1" },
    { type: "text", text: prose(12) },
    { type: "toolCall", name: "shell", arguments: { command: "git status" }, id: "call-2" },
    { type: "text", text: prose(2) },
  ],
};

async function wallOfTurn(permission: Permission): Promise<number> {
  const shell = defineTool({
    name: "shell",
    description: "runs a command",
    input: z.object({ command: z.string() }),
    execute: () => "ok",
  });
  const brain = createFauxBrain([turn, fauxText("done")], {
    chunkSize: 4,
    chunkDelayMs: 6,
    // The prose repeats itself on purpose (it only fills time): not a degenerate reply.
    guard: false,
  });
  const classifier = createFauxBrain(() => fauxDelay(CLASSIFIER_MS, fauxText("<block>no</block>")), {
    api: "faux-cls",
  });
  const runner = createRunner({
    brains: [brain, classifier],
    models: { main, cls },
    roles: { default: "main", classifier: "cls" },
  });
  let firstTurnEnd = 0;
  const start = performance.now();
  const stream = runner.streamTask({ objective: "run the tests", tools: [shell], defaultPermission: permission });
  for await (const event of stream) {
    // The first turn ends when its second call's result is in: stream, gates, both calls.
    if (event.type === "tool_result" && event.toolCall.id === "call-2") firstTurnEnd = performance.now();
  }
  const result = await stream.result;
  if (result.status !== "completed") throw new Error(`auto-mode wall bench: the run ended ${result.status}`);
  return firstTurnEnd - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const allowed: number[] = [];
const gated: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  allowed.push(await wallOfTurn("allow"));
  gated.push(await wallOfTurn("auto"));
}
const base = median(allowed);
const added = median(gated) - base;
const row = (cells: Array<string | number>) => console.log(`| ${cells.join(" | ")} |`);
console.log(
  `\nrunner: wall time auto mode adds to a turn of two gated calls (a ~${(base / 1000).toFixed(1)} s stream; ` +
    `classifier ${CLASSIFIER_MS} ms a call; median of ${ROUNDS})\n`,
);
row(["way", "turn wall ms", "added by auto mode ms", "× one classifier latency"]);
row(["---", "---:", "---:", "---:"]);
row(["calls allowed, no classifier", base.toFixed(0), "—", "—"]);
row([
  "auto mode (classified as the stream goes, at once)",
  median(gated).toFixed(0),
  added.toFixed(0),
  (added / CLASSIFIER_MS).toFixed(2),
]);
row([
  "one classifier latency per call after the stream (reference)",
  (base + 2 * CLASSIFIER_MS).toFixed(0),
  2 * CLASSIFIER_MS,
  "2.00",
]);
