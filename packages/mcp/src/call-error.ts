import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ErrorCode, McpError as SdkError } from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "@x/llm-types";
import { McpCallError, McpError } from "./errors";
import type { SecretSet } from "./redact";

/** How a failed call reads as a tool result's error: typed, and with no secret in its message. */
export function callError(error: unknown, server: string, signal: AbortSignal, secrets: SecretSet): McpCallError {
  const clean = (text: string) => secrets.redact(text);
  if (error instanceof McpCallError) return new McpCallError(error.code, clean(error.message), error.rpcCode);
  if (signal.aborted) return new McpCallError("aborted", `the call to server "${server}" was cancelled`);
  if (error instanceof UnauthorizedError || error instanceof McpError)
    return new McpCallError("unauthorized", clean(`server "${server}" refused the credentials: ${error.message}`));
  if (error instanceof SdkError) {
    if (error.code === (ErrorCode.ConnectionClosed as number))
      return new McpCallError("server_disconnected", `server "${server}" went away during the call`, error.code);
    if (error.code === (ErrorCode.RequestTimeout as number))
      return new McpCallError("timeout", `server "${server}" did not answer in time`, error.code);
    return new McpCallError("server_error", clean(`server "${server}": ${error.message}`), error.code);
  }
  const message = describeError(error);
  // Anything else is the transport failing to deliver (a refused socket, a closed pipe, a proxy's 502).
  return new McpCallError("server_disconnected", clean(`server "${server}" could not be reached: ${message}`));
}
