import type { Brain, ModelCatalog, Roles } from "@x/llm-types";
import { createRunner, type Approver, type Runner, type RunnerDeps } from "@x/runner";
import { demoBrain, DEMO_CATALOG } from "./demo/models";
import { endpointModel, type EndpointConfig } from "./endpoint";
import { RunObserver } from "./observe";
import { parkKey, parkLedger } from "./park-file";
import type { AppEvent } from "./render/events";

/** The instructions every agent run gets (the scripted student ignores them; real models follow them). */
export const AGENT_SYSTEM_PROMPT = [
  "You are x-agent, working inside one sandbox folder through its tools.",
  "- list_files and read_file look at files; paths are relative to the sandbox.",
  "- write_file creates or replaces a file; a person approves each write.",
  "- shell runs one command with the sandbox as working directory; a safety classifier reviews each command first, " +
    "and a blocked command is not run.",
  "Do only what the task asks. When you are done, answer in one or two sentences with what you found or did.",
].join("\n");

/** Which catalog key plays which part. */
export interface RoleModels {
  student: string;
  teacher: string;
  /** Absent: no classifier role, the core picks the classifier's model (and says so in a notice). */
  classifier?: string;
}

export interface Runtime {
  runner: Runner;
  /** What the runner was made from: a queue worker makes its own runner from the same parts. */
  deps: RunnerDeps;
  observer: RunObserver;
  roleModels: RoleModels;
  models: ModelCatalog;
}

export type RuntimeSource =
  { mode: "demo"; thinkMs: number } | { mode: "endpoint"; endpoint: EndpointConfig; apiKey?: string };

/**
 * A runner wired for the CLI: the brains (scripted or real) wrapped so every model call is reported,
 * the roles (`classifier`, `advisor`), and parks signed with the project's key and claimed in a
 * ledger on disk, so a park can be finished by `x-agent resume` in another process exactly once.
 */
/** Short backoff: a person is watching. A server asking for a longer wait than `maxDelayMs` is not retried. */
const RETRY = { maxRetries: 2, baseDelayMs: 300, maxDelayMs: 5_000 };

export async function createRuntime(
  source: RuntimeSource,
  options: {
    emit: (event: AppEvent) => void;
    teacherMode: boolean;
    /** Report model text as it arrives (`text_delta` events). */
    streamText?: boolean;
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    approver?: Approver;
  },
): Promise<Runtime> {
  const observer = new RunObserver(options.emit, {
    teacherMode: options.teacherMode,
    streamText: options.streamText ?? false,
    maxRetryDelayMs: RETRY.maxDelayMs,
  });
  let brains: Brain[];
  let models: ModelCatalog;
  let roleModels: RoleModels;
  if (source.mode === "demo") {
    brains = [demoBrain({ thinkMs: source.thinkMs })];
    models = DEMO_CATALOG;
    roleModels = { student: "student", teacher: "teacher", classifier: "classifier" };
  } else {
    const { endpoint, apiKey } = source;
    const options = apiKey === undefined ? {} : { apiKey };
    brains = [
      endpoint.provider === "anthropic"
        ? (await import("@x/brain-anthropic")).createAnthropicBrain(options)
        : endpoint.provider === "openai-responses"
          ? (await import("@x/brain-openai")).createOpenAIResponsesBrain(options)
          : (await import("@x/brain-openai")).createOpenAIBrain(options),
    ];
    const catalog: Record<string, ReturnType<typeof endpointModel>> = {
      student: endpointModel(endpoint, endpoint.model),
      teacher: endpointModel(endpoint, endpoint.teacherModel),
    };
    if (endpoint.classifierModel !== undefined) catalog.classifier = endpointModel(endpoint, endpoint.classifierModel);
    models = catalog;
    roleModels = {
      student: "student",
      teacher: "teacher",
      ...(endpoint.classifierModel !== undefined ? { classifier: "classifier" } : {}),
    };
  }
  const roles: Roles = {
    default: roleModels.student,
    advisor: roleModels.teacher,
    ...(roleModels.classifier !== undefined ? { classifier: roleModels.classifier } : {}),
  };
  const deps: RunnerDeps = {
    brains: brains.map((brain) => observer.wrapBrain(brain)),
    models,
    roles,
    tracer: observer.tracer,
    onNotice: observer.onNotice,
    ...(options.approver ? { approver: options.approver } : {}),
    parkKey: await parkKey(options.cwd, options.env),
    parkLedger: parkLedger(options.cwd),
    retry: RETRY,
  };
  return { runner: createRunner(deps), deps, observer, roleModels, models };
}
