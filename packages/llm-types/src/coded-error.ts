/**
 * The mark every {@link CodedError} carries, under a registry-wide symbol: two installed copies of a
 * package each have their own classes, so `instanceof` fails across them, but both set this mark.
 */
const CODED = Symbol.for("@x/coded-error");

/** The base of every error an `@x` package throws on purpose: a stable `code` to branch on, a message for people. */
export class CodedError<C extends string = string> extends Error {
  readonly code: C;

  constructor(code: C, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, CODED, { value: true });
  }
}

/**
 * Whether `error` is an `@x` error — with `code`, one of that code (or of those codes). It reads the
 * mark, not the class, so it answers the same for an error from another copy of the package.
 */
export function isCodedError<C extends string = string>(
  error: unknown,
  code?: C | readonly C[],
): error is CodedError<C> {
  if (typeof error !== "object" || error === null || !(CODED in error)) return false;
  if (code === undefined) return true;
  const actual: unknown = "code" in error ? error.code : undefined;
  return typeof code === "string" ? actual === code : (code as readonly unknown[]).includes(actual);
}
