export {
  createOpenAIBrain,
  DEFAULT_OPENAI_BASE_URL,
  OPENAI_COMPLETIONS_API,
  type OpenAIBrainOptions,
} from "./openai-brain";
export {
  KNOWN_HOSTS,
  knownHost,
  type KnownHost,
  type OpenAICompat,
  type OpenAICompatOption,
  resolveCompat,
} from "./compat";
export { buildOpenAIRequest, type OpenAIRequestBody, toOpenAIMessages, toOpenAITools } from "./request";
export { classifyOpenAIError, streamErrorKind } from "./errors";
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
