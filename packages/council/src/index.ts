export { runCouncil } from "./run-council";
export { routeTask, type RouteDecision, type RouteInput, type TaskMode } from "./route";
export { CouncilConfigError, MAX_COUNCIL_ROUNDS } from "./council-config";
export {
  CritiqueSchema,
  CRITIQUE_VERDICTS,
  FindingSchema,
  LocationSchema,
  ReviewSchema,
  SEVERITIES,
  type Critique,
  type CritiqueVerdict,
  type Finding,
  type Location,
  type Review,
  type Severity,
} from "./findings";
export { locationMatcher, wordOverlap, type FindingMatcher, type LocationMatcherOptions } from "./matcher";
export { mergeFindings, type FindingCluster, type RawFinding } from "./merge";
export { CONFIRM_WEIGHT, scoreFinding, type FindingScore, type Stance } from "./score";
export { REVIEWER_SYSTEM_PROMPT, renderFiles } from "./prompts";
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
