export {
  ANTHROPIC_MESSAGES_API,
  type AnthropicBrainOptions,
  createAnthropicBrain,
  DEFAULT_ANTHROPIC_BASE_URL,
} from "./anthropic-brain";
export { THINKING_BUDGETS, type AnthropicThinkingStyle } from "./thinking";
