// The model's side of the workload on the Anthropic Messages wire: the SSE events the loopback
// server sends for turn k, the same turns, tool calls (arguments in four pieces) and final text as
// the Chat Completions script.
import { argPieces } from "./script";
import { FINAL_WORDS, MODEL_ID, TOOL_NAME, TURNS, usageFor } from "./workload";

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The whole streamed body of turn k (1-based). */
export function anthropicStream(k: number): string {
  const final = k >= TURNS;
  const u = usageFor(k, final);
  const out = [
    event("message_start", {
      message: {
        id: `msg_bench_${k}`,
        type: "message",
        role: "assistant",
        model: MODEL_ID,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: u.prompt_tokens,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      },
    }),
  ];
  if (final) {
    out.push(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
    for (const w of FINAL_WORDS)
      out.push(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: w } }));
  } else {
    out.push(
      event("content_block_start", {
        index: 0,
        content_block: { type: "tool_use", id: `toolu_${k}`, name: TOOL_NAME, input: {} },
      }),
    );
    for (const p of argPieces(k))
      out.push(event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: p } }));
  }
  out.push(event("content_block_stop", { index: 0 }));
  out.push(
    event("message_delta", {
      delta: { stop_reason: final ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: u.completion_tokens },
    }),
  );
  out.push(event("message_stop", {}));
  return out.join("");
}
