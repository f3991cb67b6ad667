export {
  sseFrame,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
  type WireHandler,
  type WireReply,
} from "@x/brain-kit/testing";
export * from "./openai-mock-server";
export { responsesTurnFrames, startResponsesMockServer } from "./responses-mock-server";
