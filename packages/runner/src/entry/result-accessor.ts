import type { TaskResult } from "../vocabulary/types";
import type { TaskResultAccessor } from "../vocabulary/runner-api";

/**
 * `stream.result` as a function returning the run's promise (the shape of a brain stream's `result()`)
 * that is also that promise, so `await stream.result` written before the method still works.
 */
export function resultAccessor<T>(promise: Promise<TaskResult<T>>): TaskResultAccessor<T> {
  const call = () => promise;
  return Object.assign(call, {
    then: promise.then.bind(promise),
    catch: promise.catch.bind(promise),
    finally: promise.finally.bind(promise),
    [Symbol.toStringTag]: "Promise",
  });
}
