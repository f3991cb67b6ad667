import {
  expectedErrorKind,
  isJsonObject,
  jsonNumber,
  jsonObjects,
  jsonString,
  parsedArguments,
  recordedPayloads,
  type ExpectedTurn,
  type Json,
  type RecordedStream,
} from "@x/brain-kit/testing";

/** A content block as the recording builds it: what `content_block_start` said, plus its deltas. */
interface Block {
  type: string;
  text: string;
  thinking: string;
  signature: string;
  data: string;
  id: string;
  name: string;
  json: string;
  input: unknown;
}

function startBlock(block: Json): Block {
  return {
    type: jsonString(block.type),
    text: jsonString(block.text),
    thinking: jsonString(block.thinking),
    signature: jsonString(block.signature),
    data: jsonString(block.data),
    id: jsonString(block.id),
    name: jsonString(block.name),
    json: "",
    input: block.input,
  };
}

function applyDelta(block: Block, delta: Json): void {
  if (delta.type === "text_delta") block.text += jsonString(delta.text);
  if (delta.type === "thinking_delta") block.thinking += jsonString(delta.thinking);
  if (delta.type === "signature_delta") block.signature += jsonString(delta.signature);
  if (delta.type === "input_json_delta") block.json += jsonString(delta.partial_json);
}

/** A tool's input: the streamed JSON when any came, else what arrived whole in the block's start. */
function toolInput(block: Block): unknown {
  if (block.json.trim() !== "") return parsedArguments(block.json);
  return isJsonObject(block.input) ? block.input : {};
}

/**
 * The turn a recorded Messages stream describes: blocks whole in `message_start` first, then each
 * streamed block with its deltas; usage fields as last reported (they are cumulative); the stop
 * reason from `message_delta`, or from `message_start` when it arrived whole. Server-side tool
 * blocks (web search, code execution, MCP) are the provider's and carry no client tool call.
 */
export function expectedMessagesTurn(recording: RecordedStream): ExpectedTurn {
  if (recording.status !== 200) return errorTurn(recording.status, isJsonObject(recording.body) ? recording.body : {});
  const blocks: Block[] = [];
  const open = new Map<number, Block>();
  const usage: Record<string, number> = {};
  let stop: string | undefined;
  let started = false;
  for (const { payload } of recordedPayloads(recording)) {
    if (!isJsonObject(payload)) continue;
    if (payload.type === "error") return errorTurn(undefined, payload);
    if (payload.type === "message_start" && isJsonObject(payload.message) && !started) {
      started = true;
      const message = payload.message;
      for (const block of Array.isArray(message.content) ? message.content : [])
        if (isJsonObject(block)) blocks.push(startBlock(block));
      Object.assign(usage, counts(message.usage));
      if (typeof message.stop_reason === "string") stop = message.stop_reason;
    }
    if (payload.type === "content_block_start" && isJsonObject(payload.content_block)) {
      const block = startBlock(payload.content_block);
      blocks.push(block);
      open.set(jsonNumber(payload.index) ?? blocks.length - 1, block);
    }
    if (payload.type === "content_block_delta" && isJsonObject(payload.delta)) {
      const block = open.get(jsonNumber(payload.index) ?? -1);
      if (block) applyDelta(block, payload.delta);
    }
    if (payload.type === "message_delta") {
      if (isJsonObject(payload.delta) && typeof payload.delta.stop_reason === "string")
        stop = payload.delta.stop_reason;
      Object.assign(usage, counts(payload.usage));
    }
  }
  return finished(blocks, usage, stop);
}

function counts(usage: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isJsonObject(usage)) return out;
  for (const key of ["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"]) {
    const value = jsonNumber(usage[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function finished(blocks: Block[], usage: Record<string, number>, stop: string | undefined): ExpectedTurn {
  const thinking = blocks.filter((block) => block.type === "thinking");
  const turn: ExpectedTurn = {
    text: blocks
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join(""),
    thinking: thinking.map((block) => block.thinking).join(""),
    toolCalls: blocks
      .filter((block) => block.type === "tool_use")
      .map((block) => ({ id: block.id, name: block.name, arguments: toolInput(block) })),
    stopReason: "stop",
    signatures: thinking.map((block) => block.signature),
    redacted: blocks.filter((block) => block.type === "redacted_thinking").map((block) => block.data),
    usage: {
      billed:
        (usage.input_tokens ?? 0) +
        (usage.output_tokens ?? 0) +
        (usage.cache_read_input_tokens ?? 0) +
        (usage.cache_creation_input_tokens ?? 0),
      cacheRead: usage.cache_read_input_tokens ?? 0,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
    },
  };
  const produced = turn.text !== "" || turn.toolCalls.length > 0;
  switch (stop) {
    case "tool_use":
      return { ...turn, stopReason: "toolUse" };
    case "max_tokens":
      return produced ? { ...turn, stopReason: "length" } : { ...turn, stopReason: "error", errorKind: "length_empty" };
    case "refusal":
      return { ...turn, stopReason: "error", errorKind: "content_filter" };
    default:
      return turn;
  }
}

function errorTurn(status: number | undefined, body: Json): ExpectedTurn {
  const error = isJsonObject(body.error) ? body.error : {};
  const kind = expectedErrorKind(status, jsonString(error.type), jsonString(error.message));
  return { text: "", thinking: "", toolCalls: [], stopReason: "error", errorKind: kind };
}
