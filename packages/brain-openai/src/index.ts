export * from "./openai-brain";
export * from "./compat";
export * from "./request";
export * from "./errors";
