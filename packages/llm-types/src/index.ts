export {
  type Api,
  ApiSchema,
  type InputKind,
  InputKindSchema,
  KNOWN_APIS,
  type Model,
  type ModelCost,
  ModelCostSchema,
  type ModelInput,
  ModelSchema,
  normalizeBaseUrl,
  type RouteCarrier,
  routeIdentity,
  sameRoute,
} from "./model";
export {
  addUsage,
  computeCost,
  type Cost,
  CostSchema,
  emptyUsage,
  microToUsd,
  type Usage,
  usageFor,
  UsageSchema,
  ZERO_COST,
} from "./usage";
export {
  type AssistantContent,
  AssistantContentSchema,
  type AssistantMessage,
  AssistantMessageSchema,
  assistantText,
  assistantToolCalls,
  ERROR_KINDS,
  type ErrorKind,
  ErrorKindSchema,
  type ImageContent,
  ImageContentSchema,
  type Message,
  MessageSchema,
  type StopReason,
  StopReasonSchema,
  type TextContent,
  TextContentSchema,
  type ThinkingContent,
  ThinkingContentSchema,
  type ToolCall,
  ToolCallSchema,
  type ToolResultMessage,
  ToolResultMessageSchema,
  type UserMessage,
  UserMessageSchema,
} from "./messages";
export { type ToolSpec, ToolSpecSchema } from "./tool";
export { type Context } from "./context";
export {
  type Brain,
  type BrainEvent,
  type BrainRequest,
  type BrainStream,
  REASONING_LEVELS,
  type RouteJudgement,
  type ReasoningLevel,
} from "./brain";
export { CodedError, isCodedError } from "./coded-error";
export { describeError } from "./describe-error";
export { matchingBrace, replyJson, type ReplyJson, replyJsonObjects } from "./reply-json";
export { MAX_TIMER_MS } from "./max-timer";
export { withoutUndefined } from "./defined";
export { EventStream } from "./event-stream";
export { defineCatalog, defineModel, type ModelCatalog, type ModelRef, resolveModelRef } from "./catalog";
export {
  expandTierKeys,
  type ModelRouting,
  resolveRole,
  ROLE_NAMES,
  ROLE_TIER_TABLE,
  type RoleName,
  type RoleResolution,
  type Roles,
  type RoleSpec,
  roleSpecModels,
  roleSpecNamesModel,
  roleSpecThinking,
  type Tier,
  type TierBindings,
  TIERS,
  tiersActive,
} from "./roles";
export { type EngineNotice, type NoticeSink, safeObserve, type TraceFrame, type Tracer } from "./notice";
export { describeIssues, issuesLine, parseWith, SchemaValidationError } from "./parse";
export {
  PROVENANCES,
  ProvenanceSchema,
  ProvenancePartSchema,
  MessageProvenanceSchema,
  attributedUserText,
  joinAttributed,
  userMessageText,
  type AttributedText,
  type MessageProvenance,
  type Provenance,
  type ProvenancePart,
} from "./provenance";
export { jsonBoundsProblem, TOOL_ARGUMENT_BOUNDS, type JsonBounds } from "./json-bounds";
