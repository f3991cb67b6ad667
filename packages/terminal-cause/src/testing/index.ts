export * from "./scripted-server";
export * from "./provider-mock";
