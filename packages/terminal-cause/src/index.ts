export * from "./cause";
export * from "./terminal-code";
export * from "./repetition-guard";
export * from "./turn-builder";
export * from "./estimate";
export * from "./redact";
