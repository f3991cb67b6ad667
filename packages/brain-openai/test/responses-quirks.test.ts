import { join } from "node:path";
import { assistantText, assistantToolCalls, defineModel } from "@x/llm-types";
import {
  readRecordedStream,
  recordedReply,
  sseFrame,
  startScriptedServer,
  type ScriptedServer,
  type WireReply,
} from "@x/brain-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIResponsesBrain } from "../src/index";

const ROOT = join(import.meta.dirname, "../recordings/responses");
let server: ScriptedServer | undefined;
afterEach(() => server?.close());

async function serve(reply: WireReply, id = "gpt-5.3-codex") {
  server = await startScriptedServer(() => reply);
  const model = defineModel({
    id,
    api: "openai-responses",
    provider: "openai",
    baseUrl: `${server.origin}/v1`,
    reasoning: true,
    contextWindow: 400_000,
    maxTokens: 8192,
  });
  const brain = createOpenAIResponsesBrain({ apiKey: "recorded", guard: false });
  return brain.stream(model, { messages: [{ role: "user", content: "replay" }] }, {}).result();
}

const play = (file: string) => serve(recordedReply(readRecordedStream(join(ROOT, file))));

/** A Responses stream of typed events, each framed with its `event:` name as OpenAI sends it. */
const events = (...payloads: Array<Record<string, unknown> & { type: string }>): WireReply => ({
  kind: "sse",
  frames: payloads.map((payload) => sseFrame(payload, payload.type)),
  ending: "end",
});
const created = { type: "response.created", response: { id: "resp_1", output: [], usage: null } };
const completed = {
  type: "response.completed",
  response: { id: "resp_1", status: "completed", output: [], usage: { input_tokens: 9, output_tokens: 4 } },
};
const message = { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "msg_1" } };
const delta = (text: string) => ({
  type: "response.output_text.delta",
  output_index: 0,
  content_index: 0,
  delta: text,
});
const textDone = (text: string) => ({ type: "response.output_text.done", output_index: 0, content_index: 0, text });

describe("Responses API: the finished items are the answer, the deltas only its preview", () => {
  it("gpt-5.3-codex: an answer streamed in two deltas is read whole from its done events", async () => {
    // The recording's deltas say "Got it" and "Here are a few **AI" (25 characters); its done
    // events carry the commentary (153) and the answer (1,485). Before, the turn was the 25.
    const turn = await play("openai/gpt-5.3-codex-phase-done-text.jsonl");
    const text = assistantText(turn);
    expect(text).toHaveLength(1638);
    expect(text.startsWith("Got it — I’ll quickly check reliable")).toBe(true);
    expect(text.endsWith("investor-grade morning brief with timestamps.")).toBe(true);
    expect(turn).toMatchObject({ stopReason: "stop", usage: { input: 4040, cacheRead: 3072, output: 463 } });
    expect(turn.usage.reasoning).toBe(64);
  });

  it("a finished text that disagrees with its deltas ends the turn `provider`, never `stop`", async () => {
    const turn = await serve(events(created, message, delta("Got it"), textDone("Here is"), completed));
    expect(turn).toMatchObject({ stopReason: "error", errorKind: "provider" });
    expect(turn.errorMessage).toMatch(/disagree/);
  });

  it("a function call's finished arguments complete the fragments streamed before them", async () => {
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" };
    const turn = await serve(
      events(
        created,
        { type: "response.output_item.added", output_index: 0, item: call },
        { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"path": "a' },
        { type: "response.function_call_arguments.done", output_index: 0, arguments: '{"path": "a.txt"}' },
        { type: "response.output_item.done", output_index: 0, item: { ...call, arguments: '{"path": "a.txt"}' } },
        completed,
      ),
    );
    expect(turn.stopReason).toBe("toolUse");
    expect(assistantToolCalls(turn)).toMatchObject([{ id: "call_1|fc_1", arguments: { path: "a.txt" } }]);
  });

  it("a message only the final response holds is read from its output", async () => {
    const final = {
      ...completed,
      response: {
        ...completed.response,
        output: [{ type: "message", id: "msg_1", content: [{ type: "output_text", text: "Whole answer." }] }],
      },
    };
    const turn = await serve(events(created, message, delta("Whole"), final));
    expect(assistantText(turn)).toBe("Whole answer.");
    expect(turn.stopReason).toBe("stop");
  });

  it("GitHub Copilot: the final response's id is kept, not the one response.created named", async () => {
    // Every event of this recording carries a new id: created "capture-id-1", completed "capture-id-69".
    const turn = await play("github-copilot/gpt-5.3-codex-id-rotation.jsonl");
    expect(turn.responseId).toBe("capture-id-69");
    expect(assistantText(turn)).toMatch(/^There are \*\*3\*\* letter/);
    expect(turn.usage.reasoning).toBe(44);
  });

  it("a reported zero of reasoning tokens stays 0, not unsaid", async () => {
    const zero = {
      ...completed,
      response: {
        ...completed.response,
        usage: { input_tokens: 9, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 } },
      },
    };
    const turn = await serve(events(created, message, delta("Hi."), textDone("Hi."), zero));
    expect(turn.usage.reasoning).toBe(0);
  });
});
