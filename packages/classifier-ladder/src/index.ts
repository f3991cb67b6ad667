export {
  CLASSIFIER_CONFIG_ERROR_CODES,
  ClassifierConfigError,
  type ClassifierConfigErrorCode,
  ClassifierLegError,
} from "./errors";
export {
  announceClassifierRoleDefaulted,
  CLASSIFIER_ROLE_DEFAULT_REASONS,
  type ClassifierRoleDefaultReason,
  type ClassifierSeat,
  classifierSeatModel,
} from "./seat";
export { routesMatch } from "./route";
export {
  AUTO_MODE_CLASSIFIER_FALLBACKS,
  type AutoModeClassifierFallback,
  autoModeClassifierFallbackOf,
  classifierLadderRungs,
} from "./rungs";
export {
  armClassifierLadder,
  type ArmedClassifierLadder,
  CLASSIFIER_ARMING_NOTICES,
  derivedRouteFallsBack,
  type RouteJudge,
} from "./preflight";
export {
  CLASSIFIER_LOW_ALLOWANCE_TOKENS,
  CLASSIFIER_LOW_SEAT,
  CLASSIFIER_OFF_SEAT,
  CLASSIFIER_THINK_ALLOWANCE_TOKENS,
  CLASSIFIER_THINK_SEAT,
  CLASSIFIER_VERDICT_TOKENS,
  classifierRungSeat,
  type ClassifierSeatRequest,
  thinkingOffSpelled,
} from "./rung-seat";
export { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";
export { type ClassifierVerdict, readClassifierVerdict, stripClassifierThinking } from "./verdict";
export {
  classifierReplyAsksAgain,
  classifierReplyEmptyAtCap,
  classifierReplyFailure,
  classifierReplyTagOnly,
  classifierReplyText,
  classifierReplyVerdictText,
} from "./reply";
export { CLASSIFIER_SYSTEM_PROMPT } from "./prompt";
export {
  CLASSIFIER_ACTION_CHARS,
  CLASSIFIER_ENTRY_CHARS,
  CLASSIFIER_TRANSCRIPT_CHARS,
  classifierTranscript,
  type ClassifierTranscriptEntry,
  renderClassifierRequest,
} from "./transcript";
export {
  type AutoModeClassified,
  type AutoModeFallback,
  type AutoModeOutcome,
  type AutoModeUnavailableCause,
  type AutoModeVerdict,
} from "./outcome";
export {
  type AutoModeDecideInput,
  type AutoModeDecider,
  createAutoModeDecider,
  type CreateAutoModeDeciderArgs,
  DEFAULT_CLASSIFIER_TIMEOUT_MS,
} from "./decider";
export { CLASSIFIER_CONTRACT_BROKEN_STREAK, classifierRoundObserver } from "./observer";
export {
  type ClassifierUnavailableDisposition,
  type ClassifierUnavailableInfo,
  classifierUnavailableNotice,
  classifierUnavailableSeat,
  type ClassifierUnavailableSeat,
  type ClassifierUnavailableStation,
} from "./unavailable";
export {
  createDenialLimit,
  DEFAULT_DENIAL_LIMIT,
  DENIAL_LIMIT_REASONS,
  type DenialLimit,
  type DenialLimitOptions,
  type DenialLimitReason,
  type DenialLimitRoute,
  type DenialState,
  type DenialStateHolder,
} from "./denial-limit";
