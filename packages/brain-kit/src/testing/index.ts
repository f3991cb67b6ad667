export {
  sseFrame,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
  type WireHandler,
  type WireReply,
} from "./scripted-server";
export {
  startProviderMockServer,
  streamReply,
  type MockReply,
  type MockScript,
  type ProviderMockOptions,
  type ProviderMockServer,
  type StreamDelivery,
} from "./provider-mock";
