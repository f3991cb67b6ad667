export { UIMessageEncoder, toUIMessageChunks, type UIMessageStreamOptions } from "./ui-message-stream";
export type { UIMessageChunk, XDataParts } from "./ui-message-chunk";
export { AgUiEncoder, toAgUiEvents, APPROVAL_INTERRUPT_REASON, type AgUiOptions } from "./ag-ui-events";
export { UI_MESSAGE_STREAM_HEADERS, AG_UI_STREAM_HEADERS } from "./sse";
export {
  uiMessageStreamResponse,
  agUiResponse,
  pipeUIMessageStream,
  pipeAgUiStream,
  type StreamResponseInit,
} from "./response";
export {
  approvalFromMessages,
  parseApprovalAnswer,
  parkForAnswer,
  resumeApproval,
  ApprovalError,
  APPROVAL_ERROR_CODES,
  type ApprovalAnswer,
  type ApprovalErrorCode,
  type ApprovalSource,
  type FoundPark,
} from "./approval";
export { resultEvents, type DecidedCall, type ResultEventsOptions } from "./result-events";
export { handleChatRequest, type ChatRouteOptions } from "./chat-route";
export { handleAgUiRequest, type AgUiRouteOptions } from "./ag-ui-route";
