export { startStudio, type Studio, type StudioOptions } from "./studio";
export type { StudioSources } from "./routes";
export type { ApprovalInbox, InboxItem, RunSource, RunSummary } from "./sources";
export { createRunnerInbox, type RunnerInboxOptions } from "./runner-inbox";
