export * from "./scripted-server";
export * from "./openai-mock-server";
