import type { ErrorKind } from "@x/llm-types";
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  framesBeforeFinish,
  framesThrough,
  runOnWire,
  WIRES,
  type WireAnswer,
  type WireTurn,
  type WireUnderTest,
} from "../../test/wires";
import type { RecordedRequest } from "@x/brain-kit/testing";
import type { RunTerminalCode, TaskSpec, TaskStatus } from "../vocabulary/types";

// Every failure a provider's wire can throw at a run, played on both real brains against their
// loopback servers, the same on every request so the retries run out. The table this builds is the
// fault matrix in the runner's README: the test fails when the README says something else
// (`UPDATE_FAULT_MATRIX=1` rewrites it), so the documentation cannot drift from the behaviour.

const TEXT: WireTurn = { text: ["The answer is ", "fort", "y-two."] };
const TOOL: WireTurn = {
  text: ["Writing it down. "],
  tool: { id: "call_1", name: "write", input: { path: "notes.txt", text: "hello world" } },
};
/** The brains' stall timer where a fault is a stall (elsewhere `runOnWire`'s long default). */
const STALL_MS = 400;

interface Fault {
  name: string;
  /** The model's turn is a tool call (the run has the `write` tool). */
  tool?: boolean;
  /** The provider answered with a reply (so it can bill it); false for refusals and silence. */
  served: boolean;
  spec?: Partial<TaskSpec>;
  /** The fault is a stall: the brains get the short stall timer. */
  stall?: boolean;
  answer(wire: WireUnderTest, request: RecordedRequest): WireAnswer;
  expected: { status: TaskStatus; code: RunTerminalCode; errorKind?: ErrorKind; requests: number };
}

const sse = (frames: string[], ending: "end" | "destroy" | "hang", delayMs?: number): WireAnswer => ({
  wire: { kind: "sse", frames, ending, ...(delayMs ? { delayMs } : {}) },
});
const failedWith = (code: RunTerminalCode, errorKind: ErrorKind, requests = 3) => ({
  status: "failed" as const,
  code,
  errorKind,
  requests,
});

const FAULTS: Fault[] = [
  {
    name: "429 with retry-after: 2",
    served: false,
    answer: () => ({ error: { status: 429, message: "Rate limit reached", headers: { "retry-after": "2" } } }),
    expected: failedWith("model_error", "rate_limited"),
  },
  {
    name: "429 without retry-after",
    served: false,
    answer: () => ({ error: { status: 429, message: "Rate limit reached" } }),
    expected: failedWith("model_error", "rate_limited"),
  },
  {
    name: "500",
    served: false,
    answer: () => ({ error: { status: 500, message: "Internal server error" } }),
    expected: failedWith("model_error", "provider"),
  },
  {
    name: "503 (Chat Completions) / 529 (Anthropic)",
    served: false,
    answer: (wire) => ({ error: { status: wire.overloadedStatus, message: "Overloaded" } }),
    expected: failedWith("model_error", "overloaded"),
  },
  {
    name: "reset before headers",
    served: false,
    answer: () => ({ wire: { kind: "destroy" } }),
    expected: failedWith("model_error", "network"),
  },
  {
    name: "reset mid-text",
    served: true,
    answer: (wire, request) => sse(framesThrough(wire.frames(TEXT, request), "fort"), "destroy"),
    expected: failedWith("stream_cut", "network"),
  },
  {
    name: "reset mid-tool-call",
    served: true,
    tool: true,
    answer: (wire, request) => sse(framesThrough(wire.frames(TOOL, request), "notes"), "destroy"),
    expected: failedWith("stream_cut", "network"),
  },
  {
    name: "complete tool call, then reset",
    served: true,
    tool: true,
    answer: (wire, request) => sse(framesBeforeFinish(wire.frames(TOOL, request)), "destroy"),
    expected: failedWith("stream_cut", "network"),
  },
  {
    name: "stall before headers",
    stall: true,
    served: false,
    answer: () => ({ wire: { kind: "hang" } }),
    expected: failedWith("model_error", "timeout"),
  },
  {
    name: "stall after headers (mid-text)",
    stall: true,
    served: true,
    answer: (wire, request) => sse(framesThrough(wire.frames(TEXT, request), "fort"), "hang"),
    expected: failedWith("stream_cut", "timeout"),
  },
  {
    name: "drip past the deadline",
    served: true,
    spec: { modelTimeoutMs: 600 },
    answer: (wire, request) => {
      const frames = wire.frames(TEXT, request);
      const head = framesThrough(frames, "The answer is ");
      // The first text arrives at once; then a frame every 150 ms, each inside the stall timer.
      return sse([head.join(""), ...frames.slice(head.length)], "end", 150);
    },
    expected: failedWith("stream_cut", "timeout"),
  },
  {
    name: "HTML page with status 200",
    served: false,
    answer: () => ({
      wire: {
        kind: "json",
        status: 200,
        body: "<!doctype html><html><body>Sign in to the network</body></html>",
        headers: { "content-type": "text/html" },
      },
    }),
    expected: failedWith("model_error", "network"),
  },
  {
    name: "invalid JSON chunk mid-stream",
    served: true,
    answer: (wire, request) => sse([...framesThrough(wire.frames(TEXT, request), "fort"), wire.badFrame], "end"),
    expected: failedWith("model_error", "provider"),
  },
  {
    name: "truncated tool JSON, stream closed",
    served: true,
    tool: true,
    answer: (wire, request) => sse(framesThrough(wire.frames(TOOL, request), "notes"), "end"),
    expected: failedWith("stream_cut", "network"),
  },
  {
    name: "truncated tool JSON at the output cap",
    served: true,
    tool: true,
    answer: (wire, request) =>
      sse([...framesThrough(wire.frames(TOOL, request), "notes"), ...wire.capEnding(request)], "end"),
    expected: { status: "failed", code: "max_tokens", requests: 2 },
  },
];

interface Outcome {
  status: TaskStatus;
  code: RunTerminalCode;
  errorKind?: ErrorKind;
  requests: number;
  retries: string;
  toolRan: boolean;
  output: string;
  /** Tokens the budget counted, and the estimate kept apart for calls never served. */
  billed: number;
  unbilled: number;
}

function describeRetries(bodies: Array<Record<string, unknown>>, sleeps: number[]): string {
  if (bodies.length <= 1) return "not retried";
  const caps = bodies.map((body) => body.max_tokens ?? body.max_completion_tokens);
  const strip = (body: Record<string, unknown>) => JSON.stringify({ ...body, max_tokens: 0, max_completion_tokens: 0 });
  const same = bodies.every((body) => strip(body) === strip(bodies[0]!));
  const capChange = caps.some((cap) => cap !== caps[0]) ? ` but max_tokens ${caps.join(" → ")}` : "";
  const waits = sleeps.length ? `, waits ${sleeps.join(" + ")} ms` : "";
  return `${bodies.length} × ${same ? "the same request" : "different requests"}${capChange}${waits}`;
}

async function play(wire: WireUnderTest, fault: Fault): Promise<Outcome> {
  const { result, bodies, calls, sleeps } = await runOnWire(wire, (request) => fault.answer(wire, request), {
    ...(fault.stall ? { stallTimeoutMs: STALL_MS } : {}),
    ...(fault.tool ? { tools: true } : {}),
    ...(fault.spec ? { spec: fault.spec } : {}),
  });
  return {
    status: result.status,
    code: result.terminal.code,
    ...(result.terminal.errorKind ? { errorKind: result.terminal.errorKind } : {}),
    requests: bodies.length,
    retries: describeRetries(bodies, sleeps),
    toolRan: calls.length > 0,
    output: result.output,
    billed: result.stats.tokens,
    unbilled: result.stats.unbilled?.totalTokens ?? 0,
  };
}

const results = new Map<string, Outcome>();
const key = (wire: WireUnderTest, fault: Fault) => `${wire.name}|${fault.name}`;

function cell(outcome: Outcome, fault: Fault): string {
  const kind = outcome.errorKind ? ` (${outcome.errorKind})` : "";
  const tool = fault.tool ? (outcome.toolRan ? ", the tool ran" : ", the tool did not run") : "";
  // Whether the budget counted the calls, not how much: a drip's count depends on timing.
  const spent = outcome.billed > 0 ? "billed" : "unbilled";
  return `${outcome.status} · \`${outcome.code}\`${kind}${tool} · ${spent}`;
}

function matrix(): string {
  const [first, second] = WIRES as [WireUnderTest, WireUnderTest];
  const rows = FAULTS.map((fault) => {
    const a = results.get(key(first, fault))!;
    const b = results.get(key(second, fault))!;
    const retries = a.retries === b.retries ? a.retries : `${first.name}: ${a.retries}; ${second.name}: ${b.retries}`;
    return `| ${fault.name} | ${cell(a, fault)} | ${cell(b, fault)} | ${retries} |`;
  });
  return [`| failure | ${first.name} | ${second.name} | retried |`, "|---|---|---|---|", ...rows].join("\n");
}

const START = "<!-- fault-matrix:start (written by src/fault-matrix.test.ts) -->";
const END = "<!-- fault-matrix:end -->";

describe("fault matrix: each wire failure on both brains, retried the same way, ended typed", () => {
  for (const fault of FAULTS) {
    for (const wire of WIRES) {
      // Retried: on a machine at load 30+ the loopback server and the SDK sometimes race on the
      // first reply (a 429's retry-after went unread now and then); a wrong rule fails every attempt.
      it(`${fault.name} — ${wire.name}`, { retry: 2 }, async () => {
        const outcome = await play(wire, fault);
        results.set(key(wire, fault), outcome);
        expect(outcome).toMatchObject(fault.expected);
        // A cut reply is never the answer: the partial text is not the run's output.
        expect(outcome.output).not.toContain("fort");
        expect(outcome.toolRan).toBe(false);
        // Budgets count what a provider could bill; the estimate for a call it never served is apart.
        expect(outcome.billed > 0).toBe(fault.served);
        expect(outcome.unbilled > 0).toBe(!fault.served);
      });
    }
  }

  afterAll(() => {
    if (results.size !== FAULTS.length * WIRES.length) return;
    const path = new URL("../../README.md", import.meta.url);
    const readme = readFileSync(path, "utf8");
    const block = `${START}\n<!-- prettier-ignore-start -->\n${matrix()}\n<!-- prettier-ignore-end -->\n${END}`;
    const updated = readme.replace(new RegExp(`${START.replace(/[()]/g, "\\$&")}[\\s\\S]*?${END}`), block);
    if (process.env.UPDATE_FAULT_MATRIX === "1") writeFileSync(path, updated);
    else
      expect(readme, "the README's fault matrix differs from this run: UPDATE_FAULT_MATRIX=1 rewrites it").toBe(
        updated,
      );
  });
});
