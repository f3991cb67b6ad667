export {
  type Api,
  ApiSchema,
  type CustomApi,
  customApi,
  type InputKind,
  KNOWN_APIS,
  KNOWN_WIRES,
  type KnownApi,
  type Model,
  type ModelCost,
  type ModelInput,
  ModelSchema,
  routeIdentity,
  sameRoute,
} from "./model";
export { addUsage, computeCost, type Cost, emptyUsage, microToUsd, type Usage, usageFor, UsageSchema } from "./usage";
export {
  type AssistantContent,
  type AssistantMessage,
  AssistantMessageSchema,
  assistantText,
  assistantToolCalls,
  ERROR_KINDS,
  type ErrorKind,
  type ImageContent,
  ImageContentSchema,
  type Message,
  MessageSchema,
  type StopReason,
  StopReasonSchema,
  type TextContent,
  TextContentSchema,
  type ThinkingContent,
  type ToolCall,
  type ToolResultMessage,
  type UserMessage,
} from "./messages";
export { type ToolSpec } from "./tool";
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
  type RoleName,
  type RoleResolution,
  type Roles,
  type RoleSpec,
  roleSpecNamesModel,
  type Tier,
  type TierBindings,
  TIERS,
  tiersActive,
} from "./roles";
export { type EngineNotice, type NoticeSink, safeObserve, type TraceFrame, type Tracer } from "./notice";
export { describeIssues, issuesLine, parseWith, SchemaValidationError } from "./parse";
export {
  PROVENANCES,
  MessageProvenanceSchema,
  joinAttributed,
  type AttributedText,
  type MessageProvenance,
  type Provenance,
  type ProvenancePart,
} from "./provenance";
export { attributedUserText } from "./user-text";
export { jsonBoundsProblem, TOOL_ARGUMENT_BOUNDS, type JsonBounds } from "./json-bounds";
export { taggedUnion } from "./tagged-union";
