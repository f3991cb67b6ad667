export * from "./model";
export * from "./usage";
export * from "./messages";
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
export * from "./tool";
export * from "./context";
export * from "./brain";
export * from "./event-stream";
export * from "./catalog";
export * from "./roles";
export * from "./notice";
export * from "./parse";
export { jsonBoundsProblem, TOOL_ARGUMENT_BOUNDS, type JsonBounds } from "./json-bounds";
