export * from "./anthropic-brain";
export * from "./request";
export * from "./errors";
