import type { Finding } from "./findings";

/** Whether two findings are the same problem. Must be symmetric and deterministic; the host may replace it. */
export type FindingMatcher = (a: Finding, b: Finding) => boolean;

/** Words too common to say two claims are about the same thing. */
const STOPWORDS = new Set(
  (
    "the a an and or of to in on at is are be it its this that with for from by not no can may " +
    "will when if than then as into"
  ).split(" "),
);

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter((word) => word.length >= 3 && !STOPWORDS.has(word)),
  );
}

/** Jaccard overlap of two texts' content words, 0 to 1. */
export function wordOverlap(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

function lineGap(a: Finding, b: Finding): number {
  const aEnd = a.location.endLine ?? a.location.line;
  const bEnd = b.location.endLine ?? b.location.line;
  if (aEnd < b.location.line) return b.location.line - aEnd;
  if (bEnd < a.location.line) return a.location.line - bEnd;
  return 0;
}

/** A path as written by different reviewers: `./src/a.ts`, `src\\a.ts` and `src/a.ts` are one file. */
function normalPath(file: string): string {
  return file.trim().replace(/\\/g, "/").replace(/^\.\//, "").toLowerCase();
}

export interface LocationMatcherOptions {
  /** Lines apart two findings may be and still be one. Default 2. */
  maxLineGap?: number;
  /** Word overlap of the two claims needed on different lines. Default 0.2. */
  minOverlap?: number;
}

/**
 * The default matcher: the same file, lines within `maxLineGap`, and — unless they name the very
 * same line — claims that share enough content words. Two different bugs a line apart stay two;
 * one bug described in other words at the same line is one.
 */
export function locationMatcher(options: LocationMatcherOptions = {}): FindingMatcher {
  const maxLineGap = options.maxLineGap ?? 2;
  const minOverlap = options.minOverlap ?? 0.2;
  return (a, b) => {
    if (normalPath(a.location.file) !== normalPath(b.location.file)) return false;
    const gap = lineGap(a, b);
    if (gap > maxLineGap) return false;
    if (gap === 0 && a.location.line === b.location.line) return true;
    return wordOverlap(a.claim, b.claim) >= minOverlap;
  };
}
