/**
 * A copy of `value` without its `undefined` fields: an option passed as `undefined` means "not
 * given", so spreading the copy over defaults keeps each default it did not really set.
 */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
