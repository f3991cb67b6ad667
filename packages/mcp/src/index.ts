export { connectMcp, type McpToolset } from "./toolset";
export { ANNOTATION_TRUST, type McpServerConfig, type McpPolicy } from "./server-config";
export { clearTool, type ToolClearance, type ToolHints } from "./permission-policy";
export { TOOL_NAME_SEPARATOR } from "./tool-name";
export {
  McpError,
  McpCallError,
  MCP_ERROR_CODES,
  MCP_CALL_ERRORS,
  type McpErrorCode,
  type McpCallErrorCode,
} from "./errors";
export type { McpResultDetails } from "./tool-result";
