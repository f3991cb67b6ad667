export {
  isAborted,
  isContextOverflow,
  isDegenerateCutMessage,
  isLengthEmpty,
  isPartialToolCallCut,
  isRetryable,
  isRetryableKind,
  isStreamCut,
  RETRYABLE_ERROR_KINDS,
  type RetryableErrorKind,
  type TerminalCauseCarrier,
} from "./cause";
export {
  isNormalTerminalCode,
  TERMINAL_CODES,
  terminalCodeOf,
  type TerminalCode,
  type TerminalTurn,
} from "./terminal-code";
