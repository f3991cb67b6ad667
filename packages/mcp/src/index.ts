export { connectMcp, type McpToolset, type McpOptions } from "./toolset";
export { OAUTH_GRANTS, TOKEN_ENDPOINT_AUTH_METHODS, type McpAuth, type McpAuthorize } from "./auth-config";
export { createMemoryTokenStore, type McpTokenStore, type McpAuthRecord } from "./token-store";
export { createFileTokenStore } from "./file-token-store";
export { createPostgresTokenStore, type PostgresQueryable } from "./postgres-token-store";
export type { Elicitor, McpElicitationRequest, ElicitationAnswer, ElicitationCall } from "./elicitation";
export { ANNOTATION_TRUST, type McpServerConfig, type McpPolicy } from "./server-config";
export { clearTool, type ToolClearance, type ToolHints } from "./permission-policy";
export { TOOL_NAME_SEPARATOR } from "./tool-name";
export { IDEMPOTENCY_KEY_META, mcpIdempotencyKey } from "./idempotency-key-meta";
export {
  McpError,
  McpCallError,
  MCP_ERROR_CODES,
  MCP_CALL_ERRORS,
  type McpErrorCode,
  type McpCallErrorCode,
} from "./errors";
export type { McpResultDetails } from "./tool-result";
