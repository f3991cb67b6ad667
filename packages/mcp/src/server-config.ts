import { MAX_TIMER_MS, taggedUnion } from "@x/llm-types";
import { PERMISSIONS } from "@x/runner";
import { z } from "zod/v4";
import { McpAuthSchema } from "./auth-config";

/**
 * A server's name: the first part of every tool name it contributes (`fs__read_file`). No
 * underscores, so the first `__` in a tool name always ends the server's part.
 */
export const SERVER_NAME = /^[a-zA-Z][a-zA-Z0-9-]{0,23}$/;

const PermissionSchema = z.enum(PERMISSIONS);

/** A spawned server speaking MCP on its stdin/stdout. */
export const StdioTransportSchema = z.strictObject({
  type: z.literal("stdio"),
  /** The executable to run. */
  command: z.string().min(1),
  /** Its arguments. */
  args: z.array(z.string()).optional(),
  /** Its environment. Default: the SDK's short list of safe variables (PATH, HOME, ...), never the whole of ours. */
  env: z.record(z.string(), z.string()).optional(),
  /** Its working folder. Default: ours. */
  cwd: z.string().optional(),
  /** What happens to its stderr. Default `ignore`; `inherit` shows it on ours. */
  stderr: z.enum(["ignore", "inherit"]).optional(),
});

const UrlSchema = z.url({ protocol: /^https?$/ });

/** A server reached over HTTP: `http` is the streamable HTTP transport, `sse` the older HTTP+SSE one. */
export const HttpTransportSchema = z.strictObject({
  type: z.enum(["http", "sse"]),
  /** The server's MCP endpoint (`http://127.0.0.1:3000/mcp`, or the `/sse` endpoint of an SSE server). */
  url: UrlSchema,
  /** Sent with every request (an `Authorization` header, say). */
  headers: z.record(z.string(), z.string()).optional(),
  /** OAuth, when the server is behind it: tokens through the host's store, never in config or logs. */
  auth: McpAuthSchema.optional(),
});

/**
 * How far a server's tool annotations are believed. `untrusted` (default): annotations never
 * change a permission — a server cannot declare its way past the classifier. `trusted`: a tool
 * declaring `readOnlyHint` (and not `destructiveHint`) gets `readOnly` permission and may run in
 * parallel with other read-only calls; one declaring `idempotentHint` (and not `readOnlyHint`) is
 * `idempotent`, so its results may wait for the next checkpoint.
 */
export const ANNOTATION_TRUST = ["untrusted", "trusted"] as const;

export const McpPolicySchema = z.strictObject({
  /** Whether the server's annotations are believed. Default `untrusted`. */
  annotations: z.enum(ANNOTATION_TRUST).optional(),
  /** Permission of a tool the server marks read-only, when annotations are trusted. Default `allow`. */
  readOnly: PermissionSchema.optional(),
  /**
   * Permission of every other tool. Default `auto` (auto mode's classifier judges each call). An
   * `allow` here still leaves a tool that declares `destructiveHint` on `auto`: annotations only
   * tighten. Only a per-tool entry can allow such a tool.
   */
  default: PermissionSchema.optional(),
  /** Per tool, by the server's own tool name: wins over everything above. */
  tools: z.record(z.string(), PermissionSchema).optional(),
});
export type McpPolicy = z.infer<typeof McpPolicySchema>;

export const McpServerConfigSchema = z.strictObject({
  /** Names the server in tool names (`<name>__<tool>`), events and errors. Letters, digits, `-`; 1-24 chars. */
  name: z.string().regex(SERVER_NAME, "a server name is 1-24 letters, digits or '-', starting with a letter"),
  transport: taggedUnion("type", [StdioTransportSchema, HttpTransportSchema]),
  /** Which permission each of its tools gets. */
  policy: McpPolicySchema.optional(),
  /** Per-call deadline of its tools. Default: the task's `toolTimeoutMs`. */
  callTimeoutMs: z.int().min(1).max(MAX_TIMER_MS).optional(),
  /**
   * The folders this server may work in, answered to its `roots/list` (a filesystem server keeps to
   * them). Declared only when given: a server is never told about folders the host did not name.
   */
  roots: z
    .array(
      z.strictObject({ uri: z.string().regex(/^file:\/\//, "a root is a file:// URI"), name: z.string().optional() }),
    )
    .optional(),
  /** Deadline for connecting and listing tools. Default 30 000 ms. */
  connectTimeoutMs: z.int().min(1).max(MAX_TIMER_MS).optional(),
});
export type McpServerConfig = z.input<typeof McpServerConfigSchema>;
export type ResolvedServerConfig = z.output<typeof McpServerConfigSchema>;
