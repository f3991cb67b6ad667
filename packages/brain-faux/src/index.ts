export * from "./brain";
export * from "./response";
export * from "./model";
