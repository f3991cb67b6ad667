/** A finished sentence or line of canonical text, handed to the recurrence detector. */
export interface Segment {
  /** Canonical characters in the chunk. */
  length: number;
  /** Letters in the chunk: a separator line of dashes is not prose. */
  letters: number;
  /** Code of its last canonical character. */
  last: number;
  /** Offset in the original text where the segment starts. */
  origStart: number;
  /** The segment sits on a table row, list item, quote, heading, HTML or indented code line. */
  structured: boolean;
  /** Canonical text plus the values of its digit runs: equal keys are equal chunks. Built on demand. */
  key(): string;
}

const INITIAL_CAPACITY = 1024;
/** Characters per gram in the hash chains that find earlier copies. */
const GRAM = 8;
const GRAM_BASE = 0x01000193;
const GRAM_BASE_POW = (() => {
  let pow = 1;
  for (let i = 0; i < GRAM; i++) pow = Math.imul(pow, GRAM_BASE);
  return pow;
})();
const HEADS = 4096;
const NL = 10;
const TAB = 9;
const SPACE = 32;
const ZERO = 48;
const PIPE = 124;

function isSpace(code: number): boolean {
  return code === SPACE || code === NL || code === TAB || code === 13 || code === 12 || code === 11 || code === 160;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
  const lower = code | 32;
  return (lower >= 97 && lower <= 122) || code > 127;
}

/** Builds a string from UTF-16 code units without blowing the argument limit of `fromCharCode`. */
function decode(units: Uint16Array): string {
  let out = "";
  for (let i = 0; i < units.length; i += 8192) {
    out += String.fromCharCode.apply(null, units.subarray(i, i + 8192) as unknown as number[]);
  }
  return out;
}

/**
 * Streams text into a canonical form the repetition guard compares: a whitespace run becomes one
 * space, or a newline when it holds one (plus a tab marker when the next line is indented 4+,
 * i.e. code); a digit run becomes `0` with a hash of its digits kept aside, so a drifting counter
 * can compare equal in prose while tables and lists still demand exact digits. Keeps the last
 * `window`..`2·window` canonical characters in typed arrays, with a map back to original offsets,
 * and tracks code fences (``` or ~~~ opening a line).
 * Per-character work touches only the typed arrays.
 */
export class Canonicalizer {
  onSegment: ((segment: Segment) => void) | undefined;
  onFence: (() => void) | undefined;
  /** Inside a code fence: nothing may fire. */
  inFence = false;
  /** Absolute canonical index before which no repeating region may start (end of the last fence). */
  floor = 0;

  private codes: Uint16Array;
  private orig: Uint32Array;
  private digits: Int32Array;
  /**
   * LZ77-style hash chains: for each position, the previous (absolute) position whose last
   * `GRAM` characters hashed to the same slot, or -1. Finding earlier copies of the tail walks a
   * short chain instead of scanning the window.
   */
  private chain: Int32Array;
  private readonly heads = new Int32Array(HEADS).fill(-1);
  private gram = 0;
  private size = 0;
  private base = 0;
  private wsOpen = false;
  private wsStart = 0;
  private wsNewline = false;
  private wsIndent = 0;
  private digitOpen = false;
  private lineStart = 0;
  private fenceChecked = false;
  private segStart = 0;

  constructor(private readonly window: number) {
    // Start small and grow to 2·window: most turns are short, and a builder holds two guards.
    const initial = Math.min(INITIAL_CAPACITY, 2 * window);
    this.codes = new Uint16Array(initial);
    this.orig = new Uint32Array(initial);
    this.digits = new Int32Array(initial);
    this.chain = new Int32Array(initial);
  }

  /** Absolute count of canonical characters emitted so far. */
  get length(): number {
    return this.base + this.size;
  }

  /** Feeds one UTF-16 code unit at original offset `at`. */
  feed(code: number, at: number): void {
    if (isSpace(code)) {
      if (!this.wsOpen) {
        this.wsOpen = true;
        this.wsStart = at;
        this.wsNewline = false;
        this.wsIndent = 0;
      }
      if (code === NL) {
        this.wsNewline = true;
        this.wsIndent = 0;
      } else if (code === TAB) this.wsIndent += 4;
      else if (code !== 13) this.wsIndent += 1;
      this.digitOpen = false;
      return;
    }
    if (this.wsOpen) {
      this.wsOpen = false;
      const atStart = this.length === 0;
      if (this.wsNewline || atStart) {
        if (!atStart) this.emit(NL, this.wsStart, 0);
        if (this.wsIndent >= 4) this.emit(TAB, this.wsStart, 0);
      } else {
        this.emit(SPACE, this.wsStart, 0);
      }
    }
    if (isDigit(code)) {
      if (this.digitOpen) {
        const last = this.size - 1;
        this.digits[last] = (Math.imul(this.digits[last]!, 31) + code) | 0;
        return;
      }
      this.digitOpen = true;
      this.emit(ZERO, at, code);
      return;
    }
    this.digitOpen = false;
    this.emit(code, at, 0);
  }

  slice(from: number, to: number): string {
    return decode(this.codes.subarray(from - this.base, to - this.base));
  }

  /**
   * Absolute start of the last earlier copy of the canonical text `[probeStart, length)` that
   * starts within `[lowest, from]`, or -1. Walks the hash chain of the tail's last gram; every
   * position on it is compared in full, so hash collisions cost time, never correctness.
   */
  lastCopyOf(probeStart: number, from: number, lowest: number): number {
    const codes = this.codes;
    const m = this.length - probeStart;
    const start = probeStart - this.base;
    for (let end = this.chain[this.size - 1]!; end >= this.base; end = this.chain[end - this.base]!) {
      const j = end - m + 1;
      if (j < lowest || j < this.base) return -1;
      if (j > from) continue;
      const local = j - this.base;
      let k = 0;
      while (k < m && codes[local + k] === codes[start + k]) k++;
      if (k === m) return j;
    }
    return -1;
  }

  /** Whether canonical characters `a` and `b` match; `exact` also compares digit values. */
  same(a: number, b: number, exact: boolean): boolean {
    const la = a - this.base;
    const lb = b - this.base;
    if (this.codes[la] !== this.codes[lb]) return false;
    return !exact || this.digits[la] === this.digits[lb];
  }

  /** Original offset of canonical character `index`. */
  originalIndex(index: number): number {
    const local = Math.min(Math.max(index - this.base, 0), this.size - 1);
    return this.orig[local] ?? 0;
  }

  /** True when any line touching `[from, to)` is a table row, list item, heading, HTML or indented code. */
  isStructured(from: number, to: number): boolean {
    const end = to - this.base;
    let line = from - this.base;
    while (line > 0 && this.codes[line - 1] !== NL) line--;
    while (line < end) {
      let lineEnd = line;
      while (lineEnd < end && this.codes[lineEnd] !== NL) lineEnd++;
      if (this.lineIsStructured(line, lineEnd)) return true;
      line = lineEnd + 1;
    }
    return false;
  }

  /**
   * True when `[from, to)` reads as prose: at least two thirds of its non-space characters are
   * letters. JSON records, CSV rows and log lines fall below it, and there a changing number is
   * data (ids, timestamps), not drift.
   */
  isProse(from: number, to: number): boolean {
    let letters = 0;
    let other = 0;
    for (let i = from - this.base; i < to - this.base; i++) {
      const code = this.codes[i]!;
      if (isLetter(code)) letters++;
      else if (code !== SPACE && code !== NL && code !== TAB) other++;
    }
    return letters >= 2 * other;
  }

  /** `start`/`end` are local indices; `end` is exclusive (the line's newline or the range end). */
  private lineIsStructured(start: number, end: number): boolean {
    const c0 = this.codes[start];
    const c1 = this.codes[start + 1];
    // Indented code, table rows, headings, HTML lines, link references ("[1.2.0]: https://...").
    if (c0 === TAB || c0 === PIPE || c0 === 35 || c0 === 60 || c0 === 91) return true;
    // "- ", "* ", "+ ", "> "
    if ((c0 === 45 || c0 === 42 || c0 === 43 || c0 === 62) && c1 === SPACE) return true;
    // "12. " / "3) " (the digits are already folded to one 0)
    if (c0 === ZERO && (c1 === 46 || c1 === 41) && this.codes[start + 2] === SPACE) return true;
    // A pipe table without the leading pipe.
    let pipes = 0;
    for (let i = start; i < end; i++) if (this.codes[i] === PIPE && ++pipes === 2) return true;
    return false;
  }

  private emit(code: number, at: number, digit: number): void {
    if (this.size === this.codes.length) {
      if (this.codes.length < 2 * this.window) this.grow();
      else this.trim();
    }
    const index = this.length;
    const prev = this.size > 0 ? this.codes[this.size - 1] : 0;
    const local = this.size;
    this.codes[local] = code;
    this.orig[local] = at;
    this.digits[local] = digit;
    this.size++;
    const leaving = index >= GRAM ? this.codes[local - GRAM]! : 0;
    this.gram = (Math.imul(this.gram, GRAM_BASE) + code - Math.imul(leaving, GRAM_BASE_POW)) | 0;
    if (index >= GRAM - 1) {
      const slot = (this.gram ^ (this.gram >>> 13)) & (HEADS - 1);
      this.chain[local] = this.heads[slot]!;
      this.heads[slot] = index;
    } else {
      this.chain[local] = -1;
    }
    if (code === NL) {
      this.endSegment(index);
      this.lineStart = index + 1;
      this.segStart = index + 1;
      this.fenceChecked = false;
    } else if (code === SPACE && (prev === 46 || prev === 33 || prev === 63)) {
      this.endSegment(index);
      this.segStart = index + 1;
      this.neutraliseOrdinal(index);
    } else if (code === SPACE && prev === 41) {
      this.neutraliseOrdinal(index);
    } else if (!this.fenceChecked && index - this.lineStart === 2) {
      this.fenceChecked = true;
      const s = this.size;
      const fence =
        (this.codes[s - 3] === 96 && this.codes[s - 2] === 96 && code === 96) ||
        (this.codes[s - 3] === 126 && this.codes[s - 2] === 126 && code === 126);
      if (fence) this.toggleFence();
    }
  }

  /**
   * The ordinal of a numbered list item ("12. ", "3) ") counts items, it is not content: forget
   * its value, so a list whose items all say the same thing reads as the loop it is, while a list
   * whose items carry their own numbers ("Item 12") still differs item by item.
   */
  private neutraliseOrdinal(spaceIndex: number): void {
    if (spaceIndex - this.lineStart !== 2) return;
    const local = this.lineStart - this.base;
    if (local >= 0 && this.codes[local] === ZERO) this.digits[local] = 0;
  }

  private toggleFence(): void {
    this.inFence = !this.inFence;
    if (!this.inFence) this.floor = this.length;
    this.onFence?.();
  }

  private endSegment(end: number): void {
    if (this.inFence || !this.onSegment || this.segStart < this.base || end <= this.segStart) return;
    const start = this.segStart - this.base;
    const stop = end - this.base;
    let letters = 0;
    for (let i = start; i < stop; i++) if (isLetter(this.codes[i]!)) letters++;
    const from = this.segStart;
    this.onSegment({
      length: stop - start,
      letters,
      last: this.codes[stop - 1]!,
      origStart: this.orig[start]!,
      structured: this.lineIsStructured(Math.max(0, this.lineStart - this.base), stop),
      // Called synchronously by the listener, before any further emit can move the buffers.
      // Digits are folded in the text; the key puts their values back, since a chunk recurring
      // with a changing number (a changelog heading, an enumerated link) is not a loop.
      key: () => {
        let key = this.slice(from, end);
        for (let i = start; i < stop; i++) if (this.digits[i]) key += `\u0000${this.digits[i]}`;
        return key;
      },
    });
  }

  private grow(): void {
    const capacity = Math.min(this.codes.length * 2, 2 * this.window);
    const codes = new Uint16Array(capacity);
    const orig = new Uint32Array(capacity);
    const digits = new Int32Array(capacity);
    const chain = new Int32Array(capacity);
    codes.set(this.codes);
    orig.set(this.orig);
    digits.set(this.digits);
    chain.set(this.chain);
    this.codes = codes;
    this.orig = orig;
    this.digits = digits;
    this.chain = chain;
  }

  /** Drops all but the last `window` characters; amortised O(1) per character. */
  private trim(): void {
    const drop = this.size - this.window;
    this.codes.copyWithin(0, drop, this.size);
    this.orig.copyWithin(0, drop, this.size);
    this.digits.copyWithin(0, drop, this.size);
    this.chain.copyWithin(0, drop, this.size);
    this.size -= drop;
    this.base += drop;
  }
}
