// The fixture's script on the wire, for the crash tests: a loopback Chat Completions server behind a
// recording proxy. The reply follows from the request alone, in any process — but, like a real
// provider, every reply names its tool calls anew (a random id each time).
import { randomUUID } from "node:crypto";
import { startOpenAIMockServer, type RecordedRequest } from "@x/brain-openai/testing";
import { afterAll, beforeAll } from "vitest";
import { callId, nextMove } from "./fixture";
import { startRecordingProxy, type RecordingProxy } from "./recording-proxy";

type WireMessage = { role: string; content?: unknown };

/** The script's reply to `request`; `named` gives the name the model calls a script tool by. */
function reply(request: RecordedRequest, named: (tool: string) => string) {
  const messages = (request.body as { messages: WireMessage[] }).messages;
  const objective = messages.find((m) => m.role === "user")?.content;
  const move = nextMove(
    typeof objective === "string" ? objective : "",
    messages.filter((m) => m.role === "tool").length,
  );
  if ("text" in move) return { text: move.text };
  const args = move.tool === "deploy" ? { target: "prod" } : { n: move.n };
  return { toolCalls: [{ id: `${callId(move)}-${randomUUID()}`, name: named(move.tool), arguments: args }] };
}

/** Registers beforeAll/afterAll for the server and its proxy; workers use `proxy.baseUrl`. */
export function useWireModel(named: (tool: string) => string = (tool) => tool): { readonly proxy: RecordingProxy } {
  let model: Awaited<ReturnType<typeof startOpenAIMockServer>> | undefined;
  let proxy: RecordingProxy | undefined;
  beforeAll(async () => {
    model = await startOpenAIMockServer(async (request) => reply(request, named));
    proxy = await startRecordingProxy(model.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await model?.close();
  });
  return {
    get proxy() {
      return proxy!;
    },
  };
}
