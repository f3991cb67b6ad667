export { runCouncil } from "./run-council";
export { routeTask, type RouteDecision, type RouteInput, type TaskMode } from "./route";
export { CouncilConfigError, MAX_COUNCIL_ROUNDS } from "./council-config";
export {
  CRITIQUE_VERDICTS,
  SEVERITIES,
  type Critique,
  type CritiqueVerdict,
  type Finding,
  type Location,
  type Review,
  type Severity,
} from "./findings";
export { locationMatcher, type FindingMatcher, type LocationMatcherOptions } from "./matcher";
export { mergeFindings, type FindingCluster, type RawFinding } from "./merge";
export { type FindingScore, type Stance } from "./score";
export { REVIEWER_SYSTEM_PROMPT } from "./prompts";
export {
  COUNCIL_STOPS,
  type CouncilConfig,
  type CouncilFinding,
  type CouncilResult,
  type CouncilReviewer,
  type CouncilStop,
  type CouncilTask,
  type ReviewerReport,
} from "./types";
