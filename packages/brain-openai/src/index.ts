export * from "./openai-brain";
export * from "./compat";
export * from "./request";
export * from "./errors";
export { createOpenAIResponsesBrain, type OpenAIResponsesBrainOptions } from "./responses-brain";
export {
  buildResponsesRequest,
  OPENAI_RESPONSES_API,
  reasoningRef,
  splitCallId,
  toResponsesInput,
  type ReasoningItemRef,
  type ResponsesRequestBody,
  type ResponsesRequestOptions,
} from "./responses-request";
export { responsesUsage, ResponsesEventReader, type ResponsesEnding } from "./responses-events";
