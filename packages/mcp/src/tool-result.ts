import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutput } from "@x/runner";

type OutputBlock = ToolOutput["content"][number];

/** What the host finds in a result's `details`: the server's own payload, kept whole. */
export interface McpResultDetails {
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  /** The server's `structuredContent`, when it sent one (validated against its `outputSchema` by the SDK). */
  structuredContent?: Record<string, unknown>;
  /** Blocks the model cannot take as they are (audio, binary resources), kept for the host. */
  withheld?: ContentBlock[];
}

function blockFor(block: ContentBlock, withheld: ContentBlock[]): OutputBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "resource_link":
      return { type: "text", text: `[resource ${block.uri}${block.name ? ` "${block.name}"` : ""}]` };
    case "resource":
      if ("text" in block.resource) return { type: "text", text: block.resource.text };
      withheld.push(block);
      return { type: "text", text: `[binary resource ${block.resource.uri} withheld from the model]` };
    case "audio":
      withheld.push(block);
      return { type: "text", text: `[audio (${block.mimeType}) withheld from the model]` };
  }
}

/**
 * A server's answer as a runner tool result: text and images go to the model, `isError` stays an
 * error result, and `structuredContent` reaches the model as JSON only when the server sent no
 * content of its own (MCP asks servers to send both; one that does not still gets read).
 */
export function toToolOutput(result: CallToolResult, origin: { server: string; tool: string }): ToolOutput {
  const withheld: ContentBlock[] = [];
  const content = result.content.map((block) => blockFor(block, withheld));
  const structured = result.structuredContent;
  if (content.length === 0)
    content.push({ type: "text", text: structured ? JSON.stringify(structured) : "(no output)" });
  const details: McpResultDetails = {
    ...origin,
    ...(structured ? { structuredContent: structured } : {}),
    ...(withheld.length > 0 ? { withheld } : {}),
  };
  return { content, isError: result.isError === true, details };
}
