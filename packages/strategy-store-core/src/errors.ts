/** Stable codes a caller can branch on; messages are for humans and never carry stored data. */
export type StrategyStoreErrorCode =
  "invalid_input" | "not_found" | "connection_lost" | "closed" | "busy" | "embed_failed" | "backend";

export interface StrategyStoreErrorOptions {
  cause?: unknown;
  /** Field paths that failed validation (never their values). */
  fields?: string[];
}

export class StrategyStoreError extends Error {
  override readonly name = "StrategyStoreError";
  readonly code: StrategyStoreErrorCode;
  readonly fields: string[];

  constructor(code: StrategyStoreErrorCode, message: string, options: StrategyStoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.fields = options.fields ?? [];
  }
}

export function isStrategyStoreError(value: unknown, code?: StrategyStoreErrorCode): value is StrategyStoreError {
  return value instanceof StrategyStoreError && (code === undefined || value.code === code);
}

/** The one message for a missing record: the same whether the id exists in another scope or nowhere. */
export function notFound(): StrategyStoreError {
  return new StrategyStoreError("not_found", "no strategy with that id in this scope");
}

export function closedError(): StrategyStoreError {
  return new StrategyStoreError("closed", "the strategy store is closed");
}
