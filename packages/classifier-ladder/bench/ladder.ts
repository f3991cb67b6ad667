// Calls, tokens and cost per classification on the ladder's three paths, against @x/brain-faux
// (token counts are the faux brain's chars/4 estimate of the real prompt and reply). Prints only.
import { createFauxBrain, fauxError, fauxText, type FauxScriptItem } from "@x/brain-faux";
import { defineModel, type Message, type Model, type ToolCall } from "@x/llm-types";
import { createAutoModeDecider, type AutoModeOutcome } from "@x/classifier-ladder";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);

const cheap = defineModel({
  id: "cheap-classifier",
  api: "faux",
  provider: "faux",
  baseUrl: "https://cheap.example/v1",
  reasoning: true,
  thinkingOff: true,
  contextWindow: 128_000,
  maxTokens: 8_192,
  cost: { input: 0.1, output: 0.4 },
});
const cheapThinker = defineModel({ ...cheap, id: "cheap-thinker", thinkingOff: false });
const main = defineModel({
  id: "main-agent",
  api: "faux",
  provider: "faux",
  baseUrl: "https://main.example/v1",
  reasoning: true,
  contextWindow: 200_000,
  maxTokens: 16_384,
  cost: { input: 3, output: 15 },
});

const transcript: Message[] = [
  {
    role: "user",
    content:
      "The CI is red. Find out why the integration tests fail, fix " +
      "it, and clean the build directory before re-running them.",
  },
  ...Array.from({ length: 6 }, (_, i): Message[] => [
    {
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: looking further.` },
        {
          type: "toolCall",
          id: `c${i}`,
          name: "bash",
          arguments: { command: `grep -rn "timeout" tests/integration/suite-${i}.ts` },
        },
      ],
      api: "faux",
      provider: "faux",
      model: "main-agent",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: 0,
    },
    {
      role: "toolResult",
      toolCallId: `c${i}`,
      toolName: "bash",
      content: [{ type: "text", text: "x".repeat(2_000) }],
      isError: false,
    },
  ]).flat(),
];
const toolCall: ToolCall = {
  type: "toolCall",
  id: "judged",
  name: "bash",
  arguments: { command: "rm -rf ./build && npm test" },
};

interface Path {
  name: string;
  seat: Model;
  seatReplies: () => FauxScriptItem[];
  mainReplies: () => FauxScriptItem[];
}

const paths: Path[] = [
  { name: "fast (off seat)", seat: cheap, seatReplies: () => [fauxText("<block>no</block>")], mainReplies: () => [] },
  {
    name: "fast (low seat)",
    seat: cheapThinker,
    seatReplies: () => [
      {
        content: [
          {
            type: "thinking",
            thinking: "The user asked to clean the build directory and re-run the tests; this matches.",
          },
          { type: "text", text: "<block>no</block>" },
        ],
      },
    ],
    mainReplies: () => [],
  },
  {
    name: "re-ask",
    seat: cheap,
    seatReplies: () => [
      fauxText("Looking at this action, it removes the build output, which the user asked for."),
      fauxText("<thinking>Explicitly requested by the user.</thinking><block>no</block>"),
    ],
    mainReplies: () => [],
  },
  {
    name: "fallback (429 → main)",
    seat: cheap,
    seatReplies: () => [fauxError("rate_limited", "429 Too Many Requests")],
    mainReplies: () => [fauxText("<block>no</block>")],
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const rows: string[][] = [];
for (const path of paths) {
  const outcomes: AutoModeOutcome[] = [];
  for (let i = 0; i < RUNS; i++) {
    const seatBrain = createFauxBrain(path.seatReplies());
    const mainBrain = createFauxBrain(path.mainReplies());
    const decider = createAutoModeDecider({
      brainFor: (m) => (m.id === main.id ? mainBrain : seatBrain),
      seat: { model: path.seat },
      main,
      taskId: "bench",
    });
    outcomes.push(await decider.decide({ toolCall, transcript }));
  }
  const per = (pick: (o: AutoModeOutcome) => number) => outcomes.reduce((sum, o) => sum + pick(o), 0) / outcomes.length;
  const verdicts = [...new Set(outcomes.map((o) => o.verdict))].join(",");
  rows.push([
    path.name,
    verdicts,
    per((o) => o.calls).toFixed(2),
    per((o) => o.usage.input).toFixed(0),
    per((o) => o.usage.output).toFixed(0),
    per((o) => o.usage.totalTokens).toFixed(0),
    per((o) => o.usage.cost.total).toFixed(0),
    median(outcomes.map((o) => o.wallMs)).toFixed(0),
  ]);
}

const header = ["path", "verdict", "calls", "input tok", "output tok", "total tok", "cost µ$", "p50 ms"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
console.log(`@x/classifier-ladder — per classification, ${RUNS} runs per path (faux brain, estimated tokens)\n`);
console.log(line(header));
console.log(`|${widths.map((w, i) => (i < 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const row of rows) console.log(line(row));
