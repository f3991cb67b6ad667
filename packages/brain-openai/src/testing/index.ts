export {
  sseFrame,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
  type WireHandler,
  type WireReply,
} from "@x/terminal-cause/testing";
export * from "./openai-mock-server";
