import { withoutUndefined } from "@x/llm-types";
import { Canonicalizer, type Segment } from "./canonical-text";

/** Knobs of {@link createRepetitionGuard}. Every field has a default tuned for model output. */
export interface RepetitionGuardOptions {
  /** Shortest repeating block considered, in canonical characters. Default 1. */
  minPeriod?: number;
  /** Longest repeating block considered. Default 2000 (a long paragraph). */
  maxPeriod?: number;
  /** Copies of the block the tail must hold before a cut. Default 4. */
  minRepeats?: number;
  /** Canonical characters the repeating tail must cover before a cut. Default 320. */
  minCoveredChars?: number;
  /**
   * Share of a block allowed to differ from the copy before it (a word swapped), for blocks of at
   * least 8 characters of prose. Default 0.1. In prose a changing number is drift too; outside
   * prose (JSON records, CSV rows, logs, enumerations) numbers must match, since there they are
   * data. Whitespace runs are always normalised.
   */
  maxDrift?: number;
  /**
   * Markdown tables, list items and indented code repeat legitimately, so a tail made of such
   * lines must repeat exactly (digits included) and much longer before it is cut.
   * Defaults: 16 copies and 1600 characters.
   */
  structuredMinRepeats?: number;
  structuredMinCoveredChars?: number;
  /** Look for a periodic tail every this many canonical characters. Default 64. */
  checkEvery?: number;
  /**
   * Canonical characters kept for detection; bounds memory and work per check. Default 8192,
   * raised when needed to hold `minRepeats` copies of a `maxPeriod` block.
   */
  window?: number;
  /** The detector for a sentence or line recurring at short regular gaps; `false` turns it off. */
  recurrence?: RecurrenceOptions | false;
}

/** A chunk (sentence or line) that keeps coming back, with varying text between. */
export interface RecurrenceOptions {
  /** Shortest chunk tracked, in canonical characters. Default 24. */
  minChunk?: number;
  /** Occurrences needed. Default 6. */
  minCount?: number;
  /** Largest gap between two occurrences, in chunks. Default 8. */
  maxGap?: number;
  /** How much the gaps may differ from each other, in chunks. Default 2. */
  gapJitter?: number;
  /**
   * Distinct chunks / chunks over the recurring span must be at most this: a poem's refrain
   * recurs between ever-new lines, a loop between the same few. Default 0.5.
   */
  maxDiversity?: number;
}

/**
 * What the guard decided. On a cut, `keep` is how many characters of the accumulated text to keep
 * (the text before the loop plus its first copy), `period` the length of the repeating block in
 * canonical characters (`periodic`) or the span from one occurrence of the recurring chunk to the
 * next (`recurring`).
 */
export type GuardVerdict =
  { cut: false } | { cut: true; keep: number; period: number; reason: "periodic" | "recurring" };

export interface RepetitionGuard {
  /** Feeds the next delta. Once it says cut, it keeps saying so and ignores further text. */
  push(delta: string): GuardVerdict;
  /** Everything pushed so far (up to the delta that triggered the cut). */
  readonly text: string;
}

export const DEFAULT_REPETITION_GUARD_OPTIONS = {
  minPeriod: 1,
  maxPeriod: 2000,
  minRepeats: 4,
  minCoveredChars: 320,
  maxDrift: 0.1,
  structuredMinRepeats: 16,
  structuredMinCoveredChars: 1600,
  checkEvery: 64,
  window: 8192,
} as const;

export const DEFAULT_RECURRENCE_OPTIONS = {
  minChunk: 24,
  minCount: 6,
  maxGap: 8,
  gapJitter: 2,
  maxDiversity: 0.5,
} as const;

/** Blocks shorter than this must repeat exactly: a one-word block has no room for a drift. */
const DRIFT_MIN_PERIOD = 8;
/** Matches in a row that end a streak of mismatches (a drifted word is shorter than this). */
const CLEAN_RUN = 8;
/** Length of the tail probe used to find candidate periods. */
const PROBE = 32;
/** Candidate periods verified per check. */
const MAX_CANDIDATES = 4;

/** A chunk ending like a line of code (`{`, `;`, `,`, `)`, ...) is not a sentence a model loops on. */
const CODE_ENDING = /[,;{}()[\]<>=]$/;

const NOT_CUT: GuardVerdict = Object.freeze({ cut: false });

/**
 * A streaming detector for degenerate repetition. Text is normalised (whitespace runs collapsed,
 * digit runs folded to one symbol, code fences tracked), then two detectors run:
 * - periodic tail: every `checkEvery` canonical characters, a candidate period p is the distance
 *   back to an earlier copy of the last 32 characters; the tail is then verified backwards block
 *   by block, allowing a small drift per block; enough copies covering enough text ⇒ cut.
 * - recurrence: each finished sentence/line is keyed; one that keeps coming back at short,
 *   regular gaps among few distinct neighbours ⇒ cut.
 * Nothing fires inside a code fence, and a periodic region never reaches back into one.
 * Work per character is O(1) amortised (hash chains make the candidate search a short walk),
 * plus O(window / checkEvery) while a candidate is being verified; memory is O(window).
 * The verdict does not depend on how the text was split into deltas.
 */
export function createRepetitionGuard(options: RepetitionGuardOptions = {}): RepetitionGuard {
  return repetitionGuardMaker(options)();
}

/**
 * Reads `options` now (what is wrong with them throws here) and returns a function that makes
 * guards with them, each one like {@link createRepetitionGuard}'s. For a caller that needs a
 * guard only once text arrives: a guard allocates its buffers when made.
 */
export function repetitionGuardMaker(options: RepetitionGuardOptions = {}): () => RepetitionGuard {
  const o = { ...DEFAULT_REPETITION_GUARD_OPTIONS, ...withoutUndefined(options) };
  const rec =
    options.recurrence === false
      ? undefined
      : { ...DEFAULT_RECURRENCE_OPTIONS, ...withoutUndefined(options.recurrence ?? {}) };
  // The window must hold `minRepeats` copies of the longest block, or that block could never be cut.
  const window = Math.max(o.window, o.maxPeriod * o.minRepeats + o.checkEvery, PROBE * 4);
  return () => {
    const canon = new Canonicalizer(window);
    const recurrence = rec ? new RecurrenceTracker(rec) : undefined;
    // Deltas are joined only when `text` is read: a string built by `+=` per small delta is a
    // chain of rope nodes that costs more in GC than the detection itself.
    let parts: string[] = [];
    let textLength = 0;
    const text = (): string => {
      if (parts.length > 1) parts = [parts.join("")];
      return parts[0] ?? "";
    };
    /** Canonical length at the last periodic check. */
    let checkedAt = 0;
    let verdict: GuardVerdict = NOT_CUT;

    canon.onSegment = (segment) => {
      if (verdict.cut || !recurrence) return;
      const hit = recurrence.add(segment);
      if (hit) verdict = { cut: true, keep: hit.keep, period: hit.period, reason: "recurring" };
    };
    canon.onFence = () => recurrence?.reset();

    const checkPeriodic = (): GuardVerdict => {
      const n = canon.length;
      const lo = Math.max(canon.floor, n - window);
      if (n - lo < Math.min(o.minCoveredChars, o.structuredMinCoveredChars) || n - lo < PROBE * 2) return NOT_CUT;
      const probeStart = n - PROBE;
      // A candidate period is the distance back to an earlier copy of the probe; only copies that
      // start within `maxPeriod` of it count.
      const lowest = Math.max(lo, probeStart - o.maxPeriod);
      let from = probeStart - 1;
      for (let k = 0; k < MAX_CANDIDATES; k++) {
        const at = canon.lastCopyOf(probeStart, from, lowest);
        if (at < lo) break;
        const period = probeStart - at;
        if (period > o.maxPeriod) break;
        if (period >= o.minPeriod) {
          const hit = verifyPeriod(period, lo);
          if (hit) return hit;
        }
        from = at - 1;
      }
      return NOT_CUT;
    };

    const verifyPeriod = (p: number, lo: number): GuardVerdict | undefined => {
      const n = canon.length;
      const structured = canon.isStructured(n - p, n);
      const exact = structured || p < DRIFT_MIN_PERIOD || !canon.isProse(n - p, n);
      const allowed = exact ? 0 : Math.floor(p * o.maxDrift);
      // Walk back comparing each character with the one a period earlier, a block of p at a time;
      // a block may hold `allowed` drifted characters. Mismatches not separated by a clean run of
      // matches form one streak; the region starts just past the streak the walk died in, so a
      // boundary with the text before the loop is never mistaken for drift, and `keep` lands on a
      // copy boundary rather than mid-word.
      let mismatches = 0;
      let inBlock = 0;
      let streak = -1;
      let clean = 0;
      let i = n - 1;
      for (; i - p >= lo; i--) {
        if (!canon.same(i, i - p, exact)) {
          if (streak < 0) streak = i;
          clean = 0;
          if (++mismatches > allowed) break;
        } else if (streak >= 0 && ++clean >= CLEAN_RUN) {
          streak = -1;
          clean = 0;
        }
        if (++inBlock === p) {
          inBlock = 0;
          mismatches = 0;
        }
      }
      const start = (streak >= 0 ? streak : i) + 1 - p;
      const covered = n - start;
      const needRepeats = structured ? o.structuredMinRepeats : o.minRepeats;
      const needCovered = structured ? o.structuredMinCoveredChars : o.minCoveredChars;
      if (covered < p * needRepeats || covered < needCovered) return undefined;
      return {
        cut: true,
        keep: snapToBoundary(canon.originalIndex(start + p), canon.originalIndex(start + 2 * p)),
        period: p,
        reason: "periodic",
      };
    };

    // The region may start mid-sentence (its rotation is arbitrary); finishing the sentence or line
    // that the first copy ends in keeps the prefix readable.
    const snapToBoundary = (keep: number, limit: number): number => {
      const all = text();
      for (let i = keep; i < limit && i < all.length; i++) {
        const ch = all.charCodeAt(i);
        if (ch === 10) return i;
        if (ch === 46 || ch === 33 || ch === 63) return i + 1;
      }
      return keep;
    };

    /** The kept prefix ends on its last non-space character. */
    const trimKeep = (found: GuardVerdict): GuardVerdict => {
      if (!found.cut) return found;
      const all = text();
      let keep = found.keep;
      while (keep > 0 && /\s/.test(all[keep - 1]!)) keep--;
      return { ...found, keep };
    };

    return {
      push(delta: string): GuardVerdict {
        if (verdict.cut) return verdict;
        const offset = textLength;
        parts.push(delta);
        textLength += delta.length;
        for (let i = 0; i < delta.length; i++) {
          canon.feed(delta.charCodeAt(i), offset + i);
          if (!verdict.cut && canon.length - checkedAt >= o.checkEvery && !canon.inFence) {
            checkedAt = canon.length;
            verdict = checkPeriodic();
          }
          if (verdict.cut) return (verdict = trimKeep(verdict));
        }
        return verdict;
      },
      get text() {
        return text();
      },
    };
  };
}

/** Tracks recent sentences/lines and spots one recurring at short regular gaps. */
class RecurrenceTracker {
  private readonly ring: Array<{ key: string; index: number; origStart: number }> = [];
  private readonly seen = new Map<string, number[]>();
  private count = 0;
  private readonly capacity: number;

  constructor(private readonly o: Required<RecurrenceOptions>) {
    this.capacity = o.minCount * (o.maxGap + 1) + 1;
  }

  reset(): void {
    this.ring.length = 0;
    this.seen.clear();
  }

  /**
   * Records a finished chunk. When the recurrence rule fires, returns where to cut (the start of
   * the chunk's second occurrence) and the block length (first to second occurrence).
   */
  add(segment: Segment): { keep: number; period: number } | undefined {
    if (
      segment.structured ||
      segment.letters < this.o.minChunk / 2 ||
      segment.length < this.o.minChunk ||
      CODE_ENDING.test(String.fromCharCode(segment.last))
    ) {
      return undefined;
    }
    const key = segment.key();
    const index = this.count++;
    this.ring.push({ key, index, origStart: segment.origStart });
    if (this.ring.length > this.capacity) {
      const old = this.ring.shift()!;
      const list = this.seen.get(old.key);
      list?.shift();
      if (list && list.length === 0) this.seen.delete(old.key);
    }
    const list = this.seen.get(key) ?? [];
    list.push(index);
    this.seen.set(key, list);
    if (list.length < this.o.minCount) return undefined;

    const run = list.slice(-this.o.minCount);
    let minGap = Infinity;
    let maxGap = 0;
    for (let i = 1; i < run.length; i++) {
      const gap = run[i]! - run[i - 1]!;
      minGap = Math.min(minGap, gap);
      maxGap = Math.max(maxGap, gap);
    }
    if (maxGap > this.o.maxGap || maxGap - minGap > this.o.gapJitter) return undefined;

    const first = run[0]!;
    const span = this.ring.filter((entry) => entry.index >= first);
    const distinct = new Set(span.map((entry) => entry.key)).size;
    if (distinct / span.length > this.o.maxDiversity) return undefined;
    const firstStart = this.ring.find((entry) => entry.index === first)!.origStart;
    const keep = this.ring.find((entry) => entry.index === run[1])!.origStart;
    return { keep, period: keep - firstStart };
  }
}
