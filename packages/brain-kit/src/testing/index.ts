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
export {
  listRecordedStreams,
  readRecordedStream,
  recordedPayloads,
  recordedReply,
  sseEvents,
  type RecordedEvent,
  type RecordedStream,
} from "./recorded-stream";
export {
  expectedErrorKind,
  isJsonObject,
  jsonNumber,
  jsonObjects,
  jsonString,
  observedTurn,
  parsedArguments,
  type ExpectedTurn,
  type Json,
} from "./expected-turn";
export { recordedTurns, type RecordedTurn, type RecordedTurns, type RecordedTurnsOptions } from "./recorded-turns";
