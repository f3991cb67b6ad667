import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Tool, ToolContext, ToolOutput } from "@x/runner";
import type { McpConnection } from "./connection";
import { McpCallError } from "./errors";
import type { SchemaCompiler } from "./json-schema";
import { runElicitor } from "./elicitation";
import { mcpIdempotencyKey } from "./idempotency-key-meta";
import { clearTool } from "./permission-policy";
import { mcpToolName } from "./tool-name";
import { toToolOutput } from "./tool-result";

/** The wire schema the model sees: the server's own, without the `$schema` line providers reject. */
function parametersOf(tool: McpTool): Record<string, unknown> {
  const { $schema: _drop, ...parameters } = tool.inputSchema as Record<string, unknown>;
  return parameters;
}

function failure(error: McpCallError, origin: { server: string; tool: string }): ToolOutput {
  return {
    content: [{ type: "text", text: `${error.message}; the tool did not finish.` }],
    isError: true,
    details: {
      error: error.code,
      ...origin,
      ...(error.rpcCode !== undefined ? { rpcCode: error.rpcCode } : {}),
    },
  };
}

/**
 * One server tool as a runner tool. Its `input` is the server's JSON Schema (checked before any
 * call, as a zod tool's would be), its permission comes from the host's policy for the server,
 * and its description is the server's text — shown to the model and, escaped, to the classifier.
 */
export function toRunnerTool(connection: McpConnection, tool: McpTool, compiler: SchemaCompiler): Tool {
  const server = connection.name;
  const name = mcpToolName(server, tool.name);
  const origin = { server, tool: tool.name };
  const description = tool.description ?? tool.title ?? `Tool "${tool.name}" of MCP server "${server}".`;
  const clearance = clearTool(tool.name, tool.annotations, connection.config.policy);
  const parameters = parametersOf(tool);
  const runner: Tool = {
    name,
    description,
    input: compiler.input(parameters),
    spec: { name, description, parameters },
    readOnly: clearance.readOnly,
    ...(clearance.idempotent ? { idempotent: true } : {}),
    permission: clearance.permission,
    ...(connection.config.callTimeoutMs !== undefined ? { timeoutMs: connection.config.callTimeoutMs } : {}),
    async execute(args: unknown, ctx: ToolContext): Promise<ToolOutput> {
      try {
        const result = await connection.call(tool.name, args, {
          signal: ctx.signal,
          idempotencyKey: mcpIdempotencyKey(server, ctx.idempotencyKey),
          onProgress: ctx.progress,
          call: { runId: ctx.runId, toolCallId: ctx.toolCallId, toolName: name },
          elicit: runElicitor(ctx.elicit),
        });
        return toToolOutput(result, origin);
      } catch (error) {
        const text = connection.secrets.redact(String(error));
        return failure(error instanceof McpCallError ? error : new McpCallError("server_error", text), origin);
      }
    },
  };
  return Object.freeze(runner);
}
