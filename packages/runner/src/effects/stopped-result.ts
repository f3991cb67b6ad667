/**
 * The mark of a tool result the runner gave a call because the run was stopped before or while it
 * ran. A symbol no tool can reach (it is not exported), so a tool's own result never passes for one;
 * copies made by spreading keep it, and JSON (every checkpoint) drops it.
 */
const STOPPED = Symbol("x.stoppedByTheRun");

/** Marks `result` as the stop's own and returns it. */
export function markStopped<T extends object>(result: T): T {
  (result as Record<symbol, unknown>)[STOPPED] = true;
  return result;
}

/** Whether `message` is a result the stop gave a call (see {@link markStopped}). */
export function isStopped(message: object): boolean {
  return (message as Record<symbol, unknown>)[STOPPED] === true;
}
