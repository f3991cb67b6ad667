import { readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import {
  evaluateAutoMode,
  formatReport,
  parseDataset,
  parseRecording,
  type EvalDataset,
  type EvaluateOptions,
} from "@x/auto-mode-eval";
import { AutoModeRulesSchema } from "@x/classifier-ladder";
import type { Brain } from "@x/llm-types";
import { issuesLine } from "@x/llm-types";
import { UsageError } from "../args";
import { endpointModel, resolveEndpoint } from "../endpoint";
import type { EvalCommand } from "../eval-args";
import type { CliIo } from "../io";

/** The folder of datasets @x/auto-mode-eval ships. */
function shippedDatasets(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@x/auto-mode-eval/package.json")), "datasets");
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`the ${what} ${path} is not JSON`);
  }
}

/** A name is a shipped dataset (`agentdojo`); anything with a slash or `.json` is a file. */
async function loadDatasets(names: readonly string[], cwd: string): Promise<EvalDataset[]> {
  const shipped = shippedDatasets();
  const wanted =
    names.length > 0
      ? names
      : (await readdir(shipped)).filter((file) => file.endsWith(".json")).map((file) => file.slice(0, -5));
  const out: EvalDataset[] = [];
  for (const name of wanted) {
    const path = /[/\\]|\.json$/.test(name) ? resolve(cwd, name) : join(shipped, `${name}.json`);
    out.push(parseDataset(await readJson(path, "dataset")));
  }
  return out;
}

async function brainFor(provider: string, apiKey: string | undefined): Promise<Brain> {
  const options = apiKey === undefined ? {} : { apiKey };
  if (provider === "anthropic") return (await import("@x/brain-anthropic")).createAnthropicBrain(options);
  if (provider === "openai-responses") return (await import("@x/brain-openai")).createOpenAIResponsesBrain(options);
  return (await import("@x/brain-openai")).createOpenAIBrain(options);
}

/**
 * `x-agent eval auto-mode`: the datasets through auto mode's real decider on the given endpoint (or a
 * recording), the figures printed; `--record` writes every classifier reply so `--replay` reproduces them.
 */
export async function evalCommandRun(command: EvalCommand, io: CliIo): Promise<number> {
  const datasets = await loadDatasets(command.datasets, io.cwd);
  const options: EvaluateOptions = { datasets, split: command.split, concurrency: command.concurrency };
  if (command.rules !== undefined) {
    const rules = AutoModeRulesSchema.safeParse(await readJson(resolve(io.cwd, command.rules), "rules file"));
    if (!rules.success) throw new UsageError(`the rules in ${command.rules} are invalid: ${issuesLine(rules.error)}`);
    options.rules = rules.data;
  }
  if (command.prompt !== undefined) {
    const path = resolve(io.cwd, command.prompt);
    options.systemPrompt = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read the prompt file ${path}: ${error.code ?? "error"}`);
    });
  }
  if (command.replay !== undefined) {
    options.replay = parseRecording(await readJson(resolve(io.cwd, command.replay), "recording"));
  } else {
    const { config, apiKey } = resolveEndpoint(
      {
        prices: command.prices,
        ...(command.provider ? { provider: command.provider } : {}),
        ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
        ...(command.apiKey ? { apiKey: command.apiKey } : {}),
        ...(command.model ? { model: command.model } : {}),
      },
      io.env,
    );
    options.model = endpointModel(config, config.model);
    options.brain = await brainFor(config.provider, apiKey);
    options.record = command.record !== undefined;
  }
  const total = datasets.reduce((sum, set) => sum + set.cases.length, 0);
  let done = 0;
  options.onCase = () => {
    done += 1;
    if (io.interactive && done % 25 === 0) io.emit({ type: "note", text: `${done} of up to ${total} cases judged` });
  };
  const report = await evaluateAutoMode(options);
  if (command.record !== undefined && report.recording) {
    await writeFile(resolve(io.cwd, command.record), `${JSON.stringify(report.recording)}\n`);
  }
  const { recording: _recording, results: _results, ...figures } = report;
  io.emit({ type: "eval_report", text: formatReport(report), figures });
  return 0;
}
