export * from "./anthropic-brain";
export * from "./request";
export {
  answerRoom,
  defaultThinkingStyle,
  openTurnAllowsThinking,
  thinkingFor,
  THINKING_BUDGETS,
  type AnthropicThinkingStyle,
} from "./thinking";
export * from "./errors";
