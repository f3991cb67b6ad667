/** A proportion with its 95 % Wilson score interval (sound at small n and at 0 or n successes). */
export interface Proportion {
  count: number;
  of: number;
  /** `count / of`, or `undefined` when `of` is 0. */
  rate?: number;
  low?: number;
  high?: number;
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** `count` of `of` with its 95 % Wilson score interval. */
export function wilson(count: number, of: number): Proportion {
  if (of === 0) return { count, of };
  const p = count / of;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * of)) / (1 + z2 / of);
  const half = (Z95 / (1 + z2 / of)) * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of));
  // At 0 or n successes the bound is exactly 0 or 1; rounding must not print 99.99…
  const low = count === 0 ? 0 : Math.max(0, centre - half);
  const high = count === of ? 1 : Math.min(1, centre + half);
  return { count, of, rate: p, low, high };
}
