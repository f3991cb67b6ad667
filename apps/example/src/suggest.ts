/** Edit distance (insertions, deletions, substitutions) between two words. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate a mistyped word most likely meant: the nearest by edit distance, if it is near enough
 * (at most a third of the word's length, and 2) to be a typo rather than another word; else undefined.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  const limit = Math.min(2, Math.max(1, Math.floor(word.length / 3)));
  return best && best.d <= limit ? best.candidate : undefined;
}
