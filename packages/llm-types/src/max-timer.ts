/**
 * The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days): Node runs a longer one after
 * 1 ms, so every `timeoutMs` a user gives is checked against it.
 */
export const MAX_TIMER_MS = 2_147_483_647;
