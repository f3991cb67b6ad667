export {
  createOpenAIBrain,
  DEFAULT_OPENAI_BASE_URL,
  OPENAI_COMPLETIONS_API,
  type OpenAIBrainOptions,
} from "./openai-brain";
export { type OpenAICompat, type OpenAICompatOption } from "./compat";
export { createOpenAIResponsesBrain, type OpenAIResponsesBrainOptions } from "./responses-brain";
export { OPENAI_RESPONSES_API } from "./responses-request";
