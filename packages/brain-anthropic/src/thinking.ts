import type { Anthropic } from "@anthropic-ai/sdk";
import type { Model, ReasoningLevel } from "@x/llm-types";

type MessageParam = Anthropic.MessageParam;

/**
 * How a level is spelled: `budget` — `thinking: { type: "enabled", budget_tokens }`; `adaptive` —
 * `thinking: { type: "adaptive" }` with `output_config.effort`, which the newest models want (Opus
 * 4.7 and later, the 5 family, refuse `enabled` with a 400).
 */
export type AnthropicThinkingStyle = "budget" | "adaptive";

/** Thinking budgets per level, in tokens (Anthropic's minimum budget is 1024). */
export const THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, "off">, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 32_000,
};
const MIN_THINKING_BUDGET = 1024;

/** The least of `max_tokens` a budget leaves for the answer: a quarter of it, at least 1024 tokens. */
export function answerRoom(maxTokens: number): number {
  return Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 4));
}

const ADAPTIVE_EFFORT: Readonly<Record<Exclude<ReasoningLevel, "off">, "low" | "medium" | "high">> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
};

/**
 * The style a model's id implies when its catalog entry does not say: adaptive from Claude 4.6
 * (Opus, Sonnet) and for every model of the 5 family on, where Anthropic replaced fixed budgets;
 * budget for older models, which do not know adaptive.
 */
export function defaultThinkingStyle(modelId: string): AnthropicThinkingStyle {
  const match = /claude-([a-z]+)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(modelId);
  if (!match) return "budget";
  const major = Number(match[2]);
  const minor = match[3] === undefined ? 0 : Number(match[3]);
  if (major >= 5) return "adaptive";
  return major === 4 && minor >= 6 && (match[1] === "opus" || match[1] === "sonnet") ? "adaptive" : "budget";
}

/** The thinking parameter for this call: omitted for off/unset, else a budget that leaves room for the answer. */
export function thinkingFor(
  model: Model,
  level: ReasoningLevel | undefined,
  maxTokens: number,
): Anthropic.ThinkingConfigParam | undefined {
  if (!model.reasoning || level === undefined || level === "off") return undefined;
  const budget = Math.min(THINKING_BUDGETS[level], maxTokens - answerRoom(maxTokens));
  return budget >= MIN_THINKING_BUDGET ? { type: "enabled", budget_tokens: budget } : undefined;
}

/**
 * Whether the turn being continued lets thinking be on. When the history ends in tool results, the
 * assistant turn that asked for them is still open, and with thinking on the API wants it to start
 * with a thinking block ("a final assistant message must start with a thinking block"). A turn
 * another API wrote (a fallback from OpenAI) or one made with thinking off has none to send, so
 * that call goes without thinking — the documented way to continue it — and the next user turn
 * thinks again.
 */
export function openTurnAllowsThinking(messages: MessageParam[]): boolean {
  const last = messages.at(-1);
  const endsInResults =
    last?.role === "user" &&
    Array.isArray(last.content) &&
    last.content.length > 0 &&
    last.content.every((block) => block.type === "tool_result");
  if (!endsInResults) return true;
  const asked = messages.at(-2);
  if (asked?.role !== "assistant" || typeof asked.content === "string") return true;
  const first = asked.content[0];
  return first?.type === "thinking" || first?.type === "redacted_thinking";
}

/** The thinking fields of the request body, in the chosen style; none when the open turn forbids them. */
export function thinkingFields(
  model: Model,
  level: ReasoningLevel | undefined,
  maxTokens: number,
  style: AnthropicThinkingStyle,
  messages: MessageParam[],
): Pick<Anthropic.MessageCreateParamsStreaming, "thinking" | "output_config"> {
  if (!model.reasoning || level === undefined || level === "off" || !openTurnAllowsThinking(messages)) return {};
  if (style === "adaptive")
    return { thinking: { type: "adaptive" }, output_config: { effort: ADAPTIVE_EFFORT[level] } };
  const thinking = thinkingFor(model, level, maxTokens);
  return thinking ? { thinking } : {};
}
