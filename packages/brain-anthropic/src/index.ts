export {
  ANTHROPIC_MESSAGES_API,
  type AnthropicBrainOptions,
  createAnthropicBrain,
  DEFAULT_ANTHROPIC_BASE_URL,
} from "./anthropic-brain";
export { type AnthropicRequestBody, buildAnthropicRequest, toAnthropicMessages } from "./request";
export {
  answerRoom,
  defaultThinkingStyle,
  openTurnAllowsThinking,
  thinkingFor,
  THINKING_BUDGETS,
  type AnthropicThinkingStyle,
} from "./thinking";
export { classifyAnthropicError } from "./errors";
