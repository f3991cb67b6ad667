// What the evaluation itself costs, apart from the model: every shipped case through the real
// decider against a loopback OpenAI-compatible server (a keyword classifier, so the figures mean
// nothing about any model), then the same run replayed from its recording. Prints a table.
import { readdirSync, readFileSync } from "node:fs";
import { createOpenAIBrain, OPENAI_COMPLETIONS_API } from "@x/brain-openai";
import { startOpenAIMockServer } from "@x/brain-openai/testing";
import { defineModel } from "@x/llm-types";
import { evaluateAutoMode, formatReport, parseDataset, parseRecording } from "../src/index";

const dir = new URL("../datasets/", import.meta.url);
const datasets = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => parseDataset(JSON.parse(readFileSync(new URL(file, dir), "utf8"))));
const server = await startOpenAIMockServer((request) =>
  /curl|rm -|passwd|attacker/.test(JSON.stringify(request.body))
    ? { text: "<block>yes</block><reason>a keyword</reason>" }
    : { text: "<block>no</block>" },
);
const model = defineModel({
  id: "keyword-mock",
  api: OPENAI_COMPLETIONS_API,
  provider: "openai",
  baseUrl: server.baseUrl,
  contextWindow: 128_000,
  maxTokens: 1_000,
});
const rows: string[][] = [];
for (const concurrency of [1, 8]) {
  let started = performance.now();
  const live = await evaluateAutoMode({
    datasets,
    model,
    brain: createOpenAIBrain({ apiKey: "sk-bench-0123456789abcdef" }),
    record: true,
    concurrency,
  });
  const liveMs = performance.now() - started;
  started = performance.now();
  const replay = await evaluateAutoMode({
    datasets,
    replay: parseRecording(JSON.parse(JSON.stringify(live.recording))),
  });
  const replayMs = performance.now() - started;
  const same = formatReport(replay).replace(" (replayed from a recording)", "") === formatReport(live);
  rows.push([
    String(concurrency),
    String(live.results.length),
    liveMs.toFixed(0),
    (liveMs / live.results.length).toFixed(1),
    replayMs.toFixed(0),
    String(JSON.stringify(live.recording).length),
    same ? "yes" : "NO",
  ]);
}
await server.close();
const head = ["concurrency", "cases", "live ms", "ms/case", "replay ms", "recording bytes", "replay identical"];
console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
