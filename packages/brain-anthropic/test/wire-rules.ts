import type { Anthropic } from "@anthropic-ai/sdk";

type Body = Anthropic.MessageCreateParamsStreaming;

/**
 * The Messages API's documented request rules a brain can break, as the API's own error texts.
 * Empty when the body is one the API accepts (as far as these rules go).
 */
export function anthropicRuleViolations(body: Body): string[] {
  const out: string[] = [];
  const thinking = body.thinking;
  if (thinking?.type === "enabled") {
    if (thinking.budget_tokens < 1024) out.push("thinking.budget_tokens: must be at least 1024");
    if (thinking.budget_tokens >= body.max_tokens) out.push("max_tokens must be greater than thinking.budget_tokens");
  }
  let breakpoints = 0;
  const count = (block: unknown) => {
    if (block && typeof block === "object" && "cache_control" in block && block.cache_control) breakpoints++;
  };
  (Array.isArray(body.system) ? body.system : []).forEach(count);
  (body.tools ?? []).forEach(count);
  for (const message of body.messages) if (Array.isArray(message.content)) message.content.forEach(count);
  if (breakpoints > 4) out.push(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  body.messages.forEach((message, i) => {
    if (i > 0 && body.messages[i - 1]!.role === message.role) out.push(`messages: roles must alternate (at ${i})`);
    if (message.role !== "user" || !Array.isArray(message.content)) return;
    const results = message.content.filter((block) => block.type === "tool_result");
    if (!results.length) return;
    const asked = body.messages[i - 1];
    const ids = Array.isArray(asked?.content)
      ? asked.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
      : [];
    for (const result of results)
      if (!ids.includes(result.tool_use_id))
        out.push(`messages.${i}: unexpected tool_use_id found in tool_result blocks: ${result.tool_use_id}`);
  });
  const last = body.messages.at(-1);
  const continuing =
    last?.role === "user" && Array.isArray(last.content) && last.content.some((block) => block.type === "tool_result");
  const open = body.messages.at(-2);
  if (
    thinking &&
    thinking.type !== "disabled" &&
    continuing &&
    open?.role === "assistant" &&
    Array.isArray(open.content)
  ) {
    const first = open.content[0]?.type;
    if (first !== "thinking" && first !== "redacted_thinking")
      out.push(
        `messages.${body.messages.length - 2}.content.0.type: ` +
          `Expected \`thinking\` or \`redacted_thinking\`, but found ` +
          `\`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
      );
  }
  return out;
}
