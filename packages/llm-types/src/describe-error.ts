/** An error's message with its first causes (`fetch failed (other side closed)`), for error text. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause = error.cause;
  for (let depth = 0; depth < 2 && cause instanceof Error; depth++) {
    parts.push(`(${cause.message})`);
    cause = cause.cause;
  }
  return parts.join(" ");
}
