// The model's side of the workload as Chat Completions objects: what the loopback server sends
// (serialised) and what the in-process floor feeds its hand loop (as objects).
import { FINAL_WORDS, MODEL_ID, TOOL_NAME, TURNS, keyFor, usageFor } from "./workload";

const CREATED = 1_767_225_600;

const chunk = (k: number, choices: unknown[], extra: object = {}) => ({
  id: `chatcmpl-bench-${k}`,
  object: "chat.completion.chunk" as const,
  created: CREATED,
  model: MODEL_ID,
  choices,
  ...extra,
});

/** Tool-call arguments split the way a model streams them: a few small pieces. */
export const argPieces = (k: number) => [`{"key"`, `: "`, keyFor(k), `"}`];

/** The streamed chunks of turn k (1-based), without the `[DONE]` sentinel. */
export function streamChunks(k: number, includeUsage: boolean): unknown[] {
  const final = k >= TURNS;
  const out: unknown[] = [chunk(k, [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  if (final) {
    for (const w of FINAL_WORDS) out.push(chunk(k, [{ index: 0, delta: { content: w }, finish_reason: null }]));
  } else {
    out.push(
      chunk(k, [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: `call_${k}`, type: "function", function: { name: TOOL_NAME, arguments: "" } }],
          },
          finish_reason: null,
        },
      ]),
    );
    for (const p of argPieces(k)) {
      out.push(
        chunk(k, [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: p } }] }, finish_reason: null },
        ]),
      );
    }
  }
  out.push(chunk(k, [{ index: 0, delta: {}, finish_reason: final ? "stop" : "tool_calls" }]));
  if (includeUsage) out.push(chunk(k, [], { usage: usageFor(k, final) }));
  return out;
}

/** The non-streaming response of turn k. */
export function completionObject(k: number) {
  const final = k >= TURNS;
  const message = final
    ? { role: "assistant", content: FINAL_WORDS.join("") }
    : {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `call_${k}`, type: "function", function: { name: TOOL_NAME, arguments: argPieces(k).join("") } },
        ],
      };
  return {
    id: `chatcmpl-bench-${k}`,
    object: "chat.completion",
    created: CREATED,
    model: MODEL_ID,
    choices: [{ index: 0, message, finish_reason: final ? "stop" : "tool_calls", logprobs: null }],
    usage: usageFor(k, final),
  };
}
