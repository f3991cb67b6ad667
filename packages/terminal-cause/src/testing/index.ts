export * from "./scripted-server";
