import { CodedError, isCodedError } from "@x/llm-types";

/** Stable codes a caller can branch on; messages are for humans and never carry stored data. */
export type StrategyStoreErrorCode =
  "invalid_input" | "not_found" | "connection_lost" | "closed" | "busy" | "embed_failed" | "backend";

export interface StrategyStoreErrorOptions {
  cause?: unknown;
  /** Field paths that failed validation (never their values). */
  fields?: string[];
}

/** A store call refused or failed; `code` says which, on every copy of the package (`isCodedError`). */
export class StrategyStoreError extends CodedError<StrategyStoreErrorCode> {
  override readonly name = "StrategyStoreError";
  readonly fields: string[];

  constructor(code: StrategyStoreErrorCode, message: string, options: StrategyStoreErrorOptions = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.fields = options.fields ?? [];
  }
}

/**
 * Whether `value` is a StrategyStoreError (with `code`, of that code). It reads the `@x` error mark
 * and the name, not the class, so an error from another installed copy of this package answers too.
 */
export function isStrategyStoreError(value: unknown, code?: StrategyStoreErrorCode): value is StrategyStoreError {
  return isCodedError(value, code) && (value as Error).name === "StrategyStoreError";
}

/** The one message for a missing record: the same whether the id exists in another scope or nowhere. */
export function notFound(): StrategyStoreError {
  return new StrategyStoreError("not_found", "no strategy with that id in this scope");
}

export function closedError(): StrategyStoreError {
  return new StrategyStoreError("closed", "the strategy store is closed");
}
