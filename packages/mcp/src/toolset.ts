import { issuesLine } from "@x/llm-types";
import type { Tool } from "@x/runner";
import { z } from "zod/v4";
import { McpConnection } from "./connection";
import type { Elicitor } from "./elicitation";
import { McpError } from "./errors";
import { createSchemaCompiler, type SchemaCompiler } from "./json-schema";
import { toRunnerTool } from "./mcp-tool";
import { McpServerConfigSchema, type McpServerConfig } from "./server-config";

/** Connected servers and their tools, shared by every run the host starts. */
export interface McpToolset {
  /** Every server's tools as last listed, as runner tools (`<server>__<tool>`). */
  tools(): Tool[];
  /**
   * The host's own tools followed by the servers'. Throws `McpError` `name_clash` when a host tool
   * has an MCP tool's name, so neither can shadow the other.
   */
  withTools(own: readonly Tool[]): Tool[];
  /** The server names, in the order given. */
  readonly servers: readonly string[];
  /** Called with the new tool list after a server's `tools/list_changed` or a reconnect. */
  onToolsChanged(listener: (tools: Tool[]) => void): () => void;
  /** Ends every session and stdio process. The toolset's tools then fail `server_disconnected`. */
  close(): Promise<void>;
}

interface Entry {
  connection: McpConnection;
  compiler: SchemaCompiler;
  tools: Tool[];
}

function parseConfigs(servers: readonly McpServerConfig[]) {
  const parsed = z.array(McpServerConfigSchema).safeParse(servers);
  if (!parsed.success) {
    throw new McpError("config_invalid", `invalid MCP server config: ${issuesLine(parsed.error)}`);
  }
  const seen = new Set<string>();
  for (const config of parsed.data) {
    if (seen.has(config.name))
      throw new McpError("duplicate_server", `two MCP servers are named "${config.name}"`, config.name);
    seen.add(config.name);
  }
  return parsed.data;
}

function build(entry: Entry): void {
  const byName = new Map<string, Tool>();
  for (const tool of entry.connection.tools()) {
    const built = toRunnerTool(entry.connection, tool, entry.compiler);
    // A server listing one name twice gets its first listing; the model never sees two of one name.
    if (!byName.has(built.name)) byName.set(built.name, built);
  }
  entry.tools = [...byName.values()];
}

export interface McpOptions {
  /**
   * Answers a server's request for user input (elicitation) with a person — the run's live approver,
   * or whoever the host routes it to. Without one, every such request is declined: the model never
   * answers for the user.
   */
  elicit?: Elicitor;
}

/**
 * Connects to every server (in parallel) and lists its tools. Throws `McpError`: `config_invalid`,
 * `duplicate_server`, `connect_failed`, `auth_required` or `auth_failed` (then every server already
 * connected is closed again).
 */
export async function connectMcp(servers: readonly McpServerConfig[], options: McpOptions = {}): Promise<McpToolset> {
  const configs = parseConfigs(servers);
  const entries: Entry[] = configs.map((config) => ({
    connection: new McpConnection(config, options.elicit ? { elicit: options.elicit } : {}),
    compiler: createSchemaCompiler(),
    tools: [],
  }));
  const outcomes = await Promise.allSettled(entries.map((entry) => entry.connection.connect()));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) {
    await Promise.all(entries.map((entry) => entry.connection.close()));
    throw failed.reason;
  }
  const listeners = new Set<(tools: Tool[]) => void>();
  const all = () => entries.flatMap((entry) => entry.tools);
  for (const entry of entries) {
    build(entry);
    entry.connection.onToolsChanged(() => {
      build(entry);
      for (const listener of listeners) {
        try {
          listener(all());
        } catch {
          // A host listener that throws changes nothing here.
        }
      }
    });
  }
  return {
    servers: configs.map((config) => config.name),
    tools: all,
    withTools(own) {
      const mcp = all();
      const names = new Set(mcp.map((tool) => tool.name));
      const clash = own.find((tool) => names.has(tool.name));
      if (clash)
        throw new McpError("name_clash", `the host tool "${clash.name}" has the name of an MCP tool; rename it`);
      return [...own, ...mcp];
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await Promise.all(entries.map((entry) => entry.connection.close()));
    },
  };
}
