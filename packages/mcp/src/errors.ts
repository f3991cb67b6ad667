import { CodedError } from "@x/llm-types";

/**
 * Why a server could not be used at all: bad config, connecting/listing failed, or its OAuth —
 * `auth_required` (a person must sign in and the host gave no `authorize`), `auth_failed` (the
 * sign-in came back refused, with another state, or with no code).
 */
export const MCP_ERROR_CODES = [
  "config_invalid",
  "connect_failed",
  "duplicate_server",
  "name_clash",
  "closed",
  "auth_required",
  "auth_failed",
] as const;
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];

/** Thrown by `connectMcp` and a toolset's methods; a tool call never throws it (it becomes an error result). */
export class McpError extends CodedError<McpErrorCode> {
  override readonly name = "McpError";
  constructor(
    code: McpErrorCode,
    message: string,
    /** The server it concerns. */
    readonly server?: string,
  ) {
    super(code, message);
  }
}

/**
 * How an MCP tool call failed, as `details.error` of its error result: `server_disconnected` (the
 * server went away during the call, or could not be reached again), `server_error` (a JSON-RPC
 * error, or a result the SDK refused, such as structured content off its output schema),
 * `timeout` (the server's own deadline), `aborted`, `unauthorized` (the server refused the
 * credentials and no sign-in could renew them).
 */
export const MCP_CALL_ERRORS = ["server_disconnected", "server_error", "timeout", "aborted", "unauthorized"] as const;
export type McpCallErrorCode = (typeof MCP_CALL_ERRORS)[number];

export class McpCallError extends CodedError<McpCallErrorCode> {
  override readonly name = "McpCallError";
  constructor(
    code: McpCallErrorCode,
    message: string,
    /** The JSON-RPC error code, when the server sent one. */
    readonly rpcCode?: number,
  ) {
    super(code, message);
  }
}
