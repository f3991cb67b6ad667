// A 40-turn coding run whose gated calls write whole files: what auto mode's classifier costs per
// call, how much of each request repeats the previous one as a prefix (what a provider's prompt
// cache can serve), and the classifier's share of the run's tokens. Faux brains, tokens estimated as
// characters / 4 for the main model and the classifier alike. Prints only; bounded; no network.
import { createFauxBrain, fauxText } from "@x/brain-faux";
import { defineModel, emptyUsage, type AssistantMessage, type Message, type ToolCall } from "@x/llm-types";
import { CLASSIFIER_SYSTEM_PROMPT, createAutoModeDecider } from "@x/classifier-ladder";

const TURNS = 40;
const MAIN_SYSTEM_CHARS = 6_000; // instructions + tool specs of a coding agent
const tokens = (chars: number) => Math.ceil(chars / 4);

const model = (id: string) =>
  defineModel({
    id,
    api: "faux",
    provider: "faux",
    baseUrl: `https://${id}.example/v1`,
    contextWindow: 400_000,
    maxTokens: 16_384,
  });
const cheap = { ...model("cheap-classifier"), reasoning: true, thinkingOff: true };
const main = model("main-agent");

/** Deterministic file text of about `chars` characters, different per file. */
function fileText(index: number, chars: number): string {
  const lines: string[] = [];
  let seed = index * 7919 + 17;
  while (lines.join("\n").length < chars) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    lines.push(
      `export function f${index}_${lines.length}(x: number): number { return x * ${seed % 997} + ${seed % 31}; }`,
    );
  }
  return lines.join("\n");
}

function assistant(call: ToolCall, prose: string): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text: prose }, call],
    api: "faux",
    provider: "faux",
    model: main.id,
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

const chars = (messages: readonly Message[]) => JSON.stringify(messages).length;

function sharedPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

interface Scenario {
  name: string;
  /** Whether each turn also reads a file before writing one (the read's result is main-only context). */
  reads: boolean;
}

async function run(scenario: Scenario) {
  const brain = createFauxBrain(() => fauxText("<block>no</block>"));
  const decider = createAutoModeDecider({ brainFor: () => brain, seat: { model: cheap }, main, taskId: "long-run" });
  const history: Message[] = [
    { role: "user", content: "Port the pricing engine to TypeScript: one module per rule, with tests, in src/rules/." },
  ];
  let mainTokens = 0;
  // The main model's requests are append-only too: what its own prompt cache serves, at a tenth.
  let mainWeighted = 0;
  let mainPrevious = 0;
  const mainCall = (input: number, output: number) => {
    mainTokens += input + output;
    mainWeighted += input - Math.min(mainPrevious, input) + Math.min(mainPrevious, input) / 10 + output;
    mainPrevious = input;
  };
  const requests: string[] = [];
  const boundaries: number[][] = [];
  let classifierTokens = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    if (scenario.reads) {
      mainCall(tokens(MAIN_SYSTEM_CHARS + chars(history)), 40);
      const read: ToolCall = {
        type: "toolCall",
        id: `r${turn}`,
        name: "read_file",
        arguments: { path: `legacy/rule${turn}.py` },
      };
      history.push(assistant(read, `Reading legacy rule ${turn}.`));
      history.push({
        role: "toolResult",
        toolCallId: read.id,
        toolName: read.name,
        content: [{ type: "text", text: fileText(1000 + turn, 4_000) }],
        isError: false,
      });
    }
    const content = fileText(turn, 2_500 + ((turn * 1_237) % 5_000));
    const write: ToolCall = {
      type: "toolCall",
      id: `w${turn}`,
      name: "write_file",
      arguments: { path: `src/rules/rule${turn}.ts`, content },
    };
    const message = assistant(write, `Writing rule ${turn}.`);
    // The main model reads its whole context and writes the call.
    mainCall(tokens(MAIN_SYSTEM_CHARS + chars(history)), tokens(JSON.stringify(message.content).length));
    history.push(message);
    const outcome = await decider.decide({ toolCall: write, transcript: history });
    if (outcome.verdict !== "allow") throw new Error(`turn ${turn}: ${outcome.verdict}`);
    const call = brain.calls.at(-1)!;
    const [user] = call.context.messages;
    const userText = user?.role === "user" && typeof user.content === "string" ? user.content : "";
    const prompt = `${call.context.systemPrompt ?? ""}\n${userText}`;
    requests.push(prompt);
    // Where a cache that matches only at block boundaries (Anthropic's) can find a prefix: the end
    // of the system prompt, and each cache point of the message, shifted past the system prompt.
    const offset =
      prompt.length - (user?.role === "user" && typeof user.content === "string" ? user.content.length : 0);
    boundaries.push([offset, ...(user?.role === "user" ? (user.cachePoints ?? []) : []).map((p) => p + offset)]);
    classifierTokens += tokens(prompt.length) + 5;
    history.push({
      role: "toolResult",
      toolCallId: write.id,
      toolName: write.name,
      content: [{ type: "text", text: `wrote ${content.length} bytes to ${write.arguments.path as string}` }],
      isError: false,
    });
  }
  const inputs = requests.map((r) => tokens(r.length));
  const reuse = requests.slice(1).map((r, i) => sharedPrefix(requests[i]!, r) / r.length);
  // What a provider bills when the shared prefix is read from its cache at a tenth of the input price.
  const weighted = requests.map((r, i) => {
    const served = i === 0 ? 0 : sharedPrefix(requests[i - 1]!, r);
    return tokens(r.length - served) + tokens(served) / 10;
  });
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  // Block-boundary cache: the previous request wrote the cache at its last boundary (the marked one)
  // and at the system prompt; this one finds the longer of them that it repeats and has a boundary at.
  const blockServed = (i: number, marks: (previous: number[]) => number[]) => {
    if (i === 0) return 0;
    const r = requests[i]!;
    const previous = requests[i - 1]!;
    const found = marks(boundaries[i - 1]!).filter(
      (p) => boundaries[i]!.includes(p) && r.slice(0, p) === previous.slice(0, p),
    );
    return Math.max(0, ...found);
  };
  const blockReuse = (marks: (previous: number[]) => number[]) =>
    requests.slice(1).map((r, i) => blockServed(i + 1, marks) / r.length);
  // Before cache points the message was one block: only the system prompt could ever be found.
  const oneBlock = requests.slice(1).map((r, i) => boundaries[i + 1]![0]! / r.length);
  const atPoints = blockReuse((previous) => [previous[0]!, previous.at(-1)!]);
  const billed = (served: (i: number) => number) =>
    mean(requests.map((r, i) => tokens(r.length - served(i)) + tokens(served(i)) / 10));
  const blockWeighted = {
    before: billed((i) => (i === 0 ? 0 : boundaries[i]![0]!)),
    now: billed((i) => blockServed(i, (previous) => [previous[0]!, previous.at(-1)!])),
  };
  const kept = requests.slice(1).map((r, i) => sharedPrefix(requests[i]!, r) / requests[i]!.length);
  // New to every request whatever the design: the judged call, rendered whole, and the question after it.
  const judged = requests.map((r) => tokens(r.length - r.lastIndexOf('<tool_call name="write_file">')));
  const ceiling = requests.slice(1).map((r, i) => 1 - judged[i + 1]! / tokens(r.length));
  const system = tokens(CLASSIFIER_SYSTEM_PROMPT.length);
  const classifierWeighted = weighted.reduce((s, v) => s + v + 5, 0);
  const sorted = [...reuse].sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    callsTok: `${Math.round(mean(inputs))} / ${Math.max(...inputs)}`,
    reuseMean: `${(mean(reuse) * 100).toFixed(1)} %`,
    reuseMedian: `${(sorted[Math.floor(sorted.length / 2)]! * 100).toFixed(1)} %`,
    reuseMin: `${(sorted[0]! * 100).toFixed(1)} %`,
    weighted: String(Math.round(mean(weighted))),
    kept: `${(mean(kept) * 100).toFixed(1)} %`,
    steps: String(kept.filter((r) => r < 0.9).length),
    share: `${((classifierTokens / (classifierTokens + mainTokens)) * 100).toFixed(2)} %`,
    block:
      `${(mean(oneBlock) * 100).toFixed(1)} % → ${(mean(atPoints) * 100).toFixed(1)} ` +
      `%, ${Math.round(blockWeighted.before)} → ${Math.round(blockWeighted.now)}`,
    weightedShare: `${((classifierWeighted / (classifierWeighted + mainWeighted)) * 100).toFixed(2)} %`,
    judged: Math.round(mean(judged)),
    ceiling: `${(mean(ceiling) * 100).toFixed(1)} %`,
    // A request whose prefix serves 95 % carries at most 5 % new: twenty times the judged call.
    for95: Math.round(mean(judged) * 20),
    // A 2 % share leaves the classifier 2/98 of the main model's tokens, over all its calls.
    for2: Math.round(((mainTokens * 0.02) / 0.98 - 5 * TURNS) / TURNS),
    floor: Math.round(mean(judged)) + system,
    floorShare:
      (((mean(judged) + system + 5) * TURNS * 100) / ((mean(judged) + system + 5) * TURNS + mainTokens)).toFixed(2) +
      " %",
    run: `${Math.round((classifierTokens + mainTokens) / 1000)}k`,
    inputs,
    reuse,
  };
}

const results = [];
for (const scenario of [
  { name: "write every turn", reads: false },
  { name: "read + write every turn", reads: true },
])
  results.push(await run(scenario));

console.log(`\n@x/classifier-ladder — ${TURNS}-turn run, one whole-file write (2.5–7.5k chars) gated per turn\n`);
const header = [
  "scenario",
  "classifier input tok/call (mean / max)",
  "cache-weighted input tok/call",
  "previous request kept as prefix (mean)",
  "new request served by that prefix (mean / median / min)",
  "block-boundary cache (one block → at cache points): served mean, cache-weighted tok/call",
  "steps",
  "classifier share of run tokens",
  "share, both sides cache-weighted",
  "run tokens",
];
const rows = results.map((r) => [
  r.scenario,
  r.callsTok,
  r.weighted,
  r.kept,
  `${r.reuseMean} / ${r.reuseMedian} / ${r.reuseMin}`,
  r.block,
  r.steps,
  r.share,
  r.weightedShare,
  r.run,
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const row of rows) console.log(line(row));
console.log(`
The two targets against what no design that shows the judged call whole can avoid (tokens per call):`);
for (const r of results)
  console.log(
    `- ${r.scenario}: judged call + question ${r.judged}, so a prefix ` +
      `serves at most ${r.ceiling} of a request of today's size; ` +
      `95 % reuse needs requests of >= ${r.for95}, a <= 2 % share needs <= ${r.for2} per call; ` +
      `the floor (system prompt + judged call + question, no history) is ${r.floor}, a ${r.floorShare} share` +
      `${r.for95 > r.for2 ? " — the targets cannot both hold" : ""}` +
      `${r.floor > r.for2 ? "; 2 % is below the floor" : ""}.`,
  );
const first = results[0]!;
console.log(`\nper call (${first.scenario}): input tokens, and prefix reuse with the call before`);
console.log(
  first.inputs.map((t, i) => `${i + 1}:${t}${i > 0 ? `/${Math.round(first.reuse[i - 1]! * 100)}%` : ""}`).join("  "),
);
