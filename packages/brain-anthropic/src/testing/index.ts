export * from "./scripted-server";
export * from "./anthropic-mock-server";
