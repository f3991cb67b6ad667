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
export {
  AUTO_MODE_CLASSIFIER_FALLBACKS,
  type AutoModeClassifierFallback,
  autoModeClassifierFallbackOf,
  classifierLadderRungs,
} from "./rungs";
export { CLASSIFIER_ARMING_NOTICES, type RouteJudge } from "./preflight";
export {
  CLASSIFIER_LOW_SEAT,
  CLASSIFIER_OFF_SEAT,
  CLASSIFIER_THINK_SEAT,
  classifierRungSeat,
  type ClassifierSeatRequest,
} from "./rung-seat";
export { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";
export {
  classifierReplyAsksAgain,
  classifierReplyEmptyAtCap,
  classifierReplyFailure,
  classifierReplyTagOnly,
  classifierReplyText,
  classifierReplyVerdictText,
} from "./reply";
export { CLASSIFIER_SYSTEM_PROMPT } from "./prompt";
export { classifierTranscript, renderClassifierRequest } from "./transcript";
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
export { classifierRoundObserver } from "./observer";
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
export {
  AutoModeArgConditionSchema,
  AutoModePathConditionSchema,
  type AutoModeRule,
  type AutoModeRuleBook,
  type AutoModeRuleMatch,
  AutoModeRuleSchema,
  AutoModeRulesError,
  AutoModeRulesSchema,
  createAutoModeRuleBook,
  type RuledCall,
} from "./rules";
