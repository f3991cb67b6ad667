import { createFauxBrain, type FauxBrain, type FauxCall, type FauxScriptItem } from "@x/brain-faux";
import {
  EventStream,
  type AssistantMessage,
  type Brain,
  type EngineNotice,
  type Message,
  type Model,
  type ToolCall,
  type TraceFrame,
} from "@x/llm-types";
import { createAutoModeDecider, type AutoModeDecider, type CreateAutoModeDeciderArgs } from "../src/decider";
import { CLASSIFIER_LOW_SEAT, CLASSIFIER_OFF_SEAT, CLASSIFIER_THINK_SEAT } from "../src/rung-seat";
import { model } from "./fixtures";

const cost = { input: 0.1, output: 0.4, cacheRead: 0, cacheWrite: 0 };
/** A cheap classifier whose wire can spell thinking off: the off seat. */
export const seatOff = model("cheap-classifier", {
  reasoning: true,
  thinkingOff: true,
  baseUrl: "https://cheap.example/v1",
  cost,
});
/** A cheap classifier that thinks whatever it is told: the low seat. */
export const seatLow = model("cheap-thinker", {
  reasoning: true,
  thinkingOff: false,
  baseUrl: "https://thinker.example/v1",
  cost,
});
/** The run's main model, the fallback rung. */
export const mainModel = model("main-agent", {
  reasoning: true,
  thinkingOff: true,
  baseUrl: "https://main.example/v1",
  cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
});

export const judgedCall: ToolCall = {
  type: "toolCall",
  id: "call_rm",
  name: "bash",
  arguments: { command: "rm -rf ./build" },
};
export const baseTranscript: Message[] = [{ role: "user", content: "Clean the build directory, then run the tests." }];

export interface LadderOptions extends Partial<Omit<CreateAutoModeDeciderArgs, "brainFor" | "seat" | "main">> {
  seat?: Model;
  seatScript?: FauxScriptItem[];
  mainScript?: FauxScriptItem[];
  /** Replace a brain outright (a broken one), by model id. */
  brains?: Record<string, Brain | undefined>;
}

export interface Ladder {
  decider: AutoModeDecider;
  seatBrain: FauxBrain;
  mainBrain: FauxBrain;
  notices: EngineNotice[];
  frames: TraceFrame[];
  /** Every call made, on either brain, labelled with the seat it was asked on. */
  seats(): string[];
  calls(): FauxCall[];
}

export function ladder(options: LadderOptions = {}): Ladder {
  const { seat = seatOff, seatScript = [], mainScript = [], brains, ...rest } = options;
  const seatBrain = createFauxBrain(seatScript, { stallTimeoutMs: 20 });
  const mainBrain = createFauxBrain(mainScript, { stallTimeoutMs: 20 });
  const notices: EngineNotice[] = [];
  const frames: TraceFrame[] = [];
  const byId = (m: Model): Brain | undefined => {
    if (brains && m.id in brains) return brains[m.id];
    return m.id === seat.id ? seatBrain : m.id === mainModel.id ? mainBrain : undefined;
  };
  const decider = createAutoModeDecider({
    brainFor: byId,
    seat: { model: seat },
    main: mainModel,
    taskId: "task-1",
    runId: "run-1",
    onNotice: (n) => notices.push(n),
    tracer: { frame: (f) => frames.push(f) },
    ...rest,
  });
  const calls = () => [
    ...seatBrain.calls.map((c) => ({ c, at: c.callIndex, brain: 0 })),
    ...mainBrain.calls.map((c) => ({ c, at: c.callIndex, brain: 1 })),
  ];
  return {
    decider,
    seatBrain,
    mainBrain,
    notices,
    frames,
    // The seat brain is always asked before the main brain, so this order is the call order.
    calls: () =>
      calls()
        .sort((a, b) => a.brain - b.brain || a.at - b.at)
        .map((x) => x.c),
    seats: () =>
      calls()
        .sort((a, b) => a.brain - b.brain || a.at - b.at)
        .map((x) => seatLabel(x.c)),
  };
}

function seatLabel(call: FauxCall): string {
  for (const [label, seat] of [
    ["off", CLASSIFIER_OFF_SEAT],
    ["low", CLASSIFIER_LOW_SEAT],
    ["think", CLASSIFIER_THINK_SEAT],
  ] as const) {
    if (call.reasoning === seat.reasoning && call.maxTokens === seat.maxTokens) return label;
  }
  return `?${call.reasoning}/${call.maxTokens}`;
}

/** The text of the single user message a classifier call carried. */
export function requestText(call: FauxCall): string {
  const [message] = call.context.messages;
  return message?.role === "user" && typeof message.content === "string" ? message.content : "";
}

/**
 * A brain that returns final messages exactly as given — for reply shapes the faux brain's turn
 * builder normalises away (a `length` stop with thinking and no text, which a brain with an
 * engine-shrunk cap reports).
 */
export function verbatimBrain(replies: AssistantMessage[]): Brain & { calls: number } {
  let calls = 0;
  return {
    api: "faux",
    get calls() {
      return calls;
    },
    stream() {
      const stream = new EventStream();
      const message = replies[calls++] ?? replies.at(-1)!;
      stream.push({ type: "done", message });
      return stream;
    },
  };
}
