/** The smallest per-result cap worth sending: below it a result is a marker and little else. */
export const MIN_TAIL_RESULT_CHARS = 400;

/**
 * The largest per-result cap under which results of these lengths add up to at most `target`
 * characters: the big ones are cut to one level, the small ones kept whole (water-filling), so no
 * result is cut further than the turn needs. Undefined when even `MIN_TAIL_RESULT_CHARS` each is
 * too much: cutting results cannot make the turn fit.
 */
export function tailResultCap(lengths: readonly number[], target: number): number | undefined {
  const total = lengths.reduce((sum, n) => sum + n, 0);
  if (total <= target) return Math.max(MIN_TAIL_RESULT_CHARS, ...lengths);
  const sorted = [...lengths].sort((a, b) => a - b);
  let kept = 0;
  for (const [i, length] of sorted.entries()) {
    const rest = sorted.length - i;
    const level = Math.floor((target - kept) / rest);
    if (level <= length) return level >= MIN_TAIL_RESULT_CHARS ? level : undefined;
    kept += length;
  }
  return undefined;
}
