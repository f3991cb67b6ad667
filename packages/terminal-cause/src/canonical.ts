/** A finished sentence or line of canonical text, handed to the recurrence detector. */
export interface Segment {
  /** Canonical text with the values of its digit runs appended: equal keys are equal chunks. */
  text: string;
  /** Letters in the chunk: a separator line of dashes is not prose. */
  letters: number;
  /** Offset in the original text where the segment starts. */
  origStart: number;
  /** The segment sits on a table row, list item, quote or indented code line. */
  structured: boolean;
}

const NL = 10;
const TAB = 9;
const SPACE = 32;
const ZERO = 48;

function isSpace(code: number): boolean {
  return code === SPACE || code === NL || code === TAB || code === 13 || code === 12 || code === 11 || code === 160;
}

function countLetters(text: string, from: number, to: number): number {
  let letters = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i) | 32;
    if ((code >= 97 && code <= 122) || code > 127) letters++;
  }
  return letters;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Streams text into a canonical form the repetition guard compares: a whitespace run becomes one
 * space, or a newline when it holds one (plus a tab marker when the next line is indented 4+,
 * i.e. code); a digit run becomes `0` with a hash of its digits kept aside, so a drifting counter
 * compares equal in prose while tables and lists can still demand exact digits. Keeps only the
 * last `window`..`2·window` canonical characters, with a map back to original offsets, and
 * tracks code fences (``` or ~~~ opening a line).
 */
export class Canonicalizer {
  onSegment: ((segment: Segment) => void) | undefined;
  onFence: (() => void) | undefined;
  /** Inside a code fence: nothing may fire. */
  inFence = false;
  /** Absolute canonical index before which no repeating region may start (end of the last fence). */
  floor = 0;

  private chars = "";
  private orig: number[] = [];
  private digits: number[] = [];
  private base = 0;
  private wsOpen = false;
  private wsStart = 0;
  private wsNewline = false;
  private wsIndent = 0;
  private digitOpen = false;
  private lineStart = 0;
  private fenceChecked = false;
  private segStart = 0;

  constructor(private readonly window: number) {}

  /** Absolute count of canonical characters emitted so far. */
  get length(): number {
    return this.base + this.chars.length;
  }

  /** Feeds one UTF-16 code unit at original offset `at`; true when it emitted canonical text. */
  feed(code: number, at: number): boolean {
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
      return false;
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
        const last = this.digits.length - 1;
        this.digits[last] = (Math.imul(this.digits[last]!, 31) + code) | 0;
        return true;
      }
      this.digitOpen = true;
      this.emit(ZERO, at, code);
      return true;
    }
    this.digitOpen = false;
    this.emit(code, at, 0);
    return true;
  }

  slice(from: number, to: number): string {
    return this.chars.slice(from - this.base, to - this.base);
  }

  /** Absolute index of the last occurrence of `needle` starting at or before `from`, or -1. */
  lastIndexOf(needle: string, from: number): number {
    const local = from - this.base;
    if (local < 0) return -1;
    const at = this.chars.lastIndexOf(needle, local);
    return at < 0 ? -1 : at + this.base;
  }

  /** Whether canonical characters `a` and `b` match; `exact` also compares digit values. */
  same(a: number, b: number, exact: boolean): boolean {
    const la = a - this.base;
    const lb = b - this.base;
    if (this.chars.charCodeAt(la) !== this.chars.charCodeAt(lb)) return false;
    return !exact || this.digits[la] === this.digits[lb];
  }

  /** Original offset of canonical character `index`. */
  originalIndex(index: number): number {
    return this.orig[index - this.base] ?? this.orig[this.orig.length - 1] ?? 0;
  }

  /** True when any line touching `[from, to)` is a table row, list item, quote or indented code. */
  isStructured(from: number, to: number): boolean {
    const end = to - this.base;
    let line = Math.max(0, this.chars.lastIndexOf("\n", from - this.base - 1) + 1);
    while (line < end) {
      const next = this.chars.indexOf("\n", line);
      const lineEnd = next < 0 || next > end ? end : next;
      if (this.lineIsStructured(line, lineEnd)) return true;
      line = lineEnd + 1;
    }
    return false;
  }

  private lineIsStructured(start: number, end: number): boolean {
    const c0 = this.chars.charCodeAt(start);
    const c1 = this.chars.charCodeAt(start + 1);
    // Indented code, table rows, headings, HTML lines, link references ("[1.2.0]: https://...").
    if (c0 === TAB || c0 === 124 || c0 === 35 || c0 === 60 || c0 === 91) return true;
    // "- ", "* ", "+ ", "> "
    if ((c0 === 45 || c0 === 42 || c0 === 43 || c0 === 62) && c1 === SPACE) return true;
    // "12. " / "3) " (the digits are already folded to one 0)
    if (c0 === ZERO && (c1 === 46 || c1 === 41) && this.chars.charCodeAt(start + 2) === SPACE) return true;
    // A pipe table without the leading pipe.
    const pipe = this.chars.indexOf("|", start);
    return pipe >= 0 && pipe < end && this.chars.indexOf("|", pipe + 1) >= 0 && this.chars.indexOf("|", pipe + 1) < end;
  }

  private emit(code: number, at: number, digit: number): void {
    const index = this.length;
    const prev = this.chars.charCodeAt(this.chars.length - 1);
    this.chars += String.fromCharCode(code);
    this.orig.push(at);
    this.digits.push(digit);
    if (code === NL) {
      this.endSegment(index);
      this.lineStart = index + 1;
      this.segStart = index + 1;
      this.fenceChecked = false;
    } else if (code === SPACE && (prev === 46 || prev === 33 || prev === 63)) {
      this.endSegment(index);
      this.segStart = index + 1;
    } else if (!this.fenceChecked && index - this.lineStart === 2) {
      this.fenceChecked = true;
      const opener = this.chars.slice(-3);
      if (opener === "```" || opener === "~~~") this.toggleFence();
    }
    if (this.chars.length > 2 * this.window) this.trim();
  }

  private toggleFence(): void {
    this.inFence = !this.inFence;
    if (!this.inFence) this.floor = this.length;
    this.onFence?.();
  }

  private endSegment(end: number): void {
    if (this.inFence || !this.onSegment || this.segStart < this.base || end <= this.segStart) return;
    const start = this.segStart - this.base;
    const lineStart = Math.max(0, this.lineStart - this.base);
    // Digits are folded in the canonical text; the key puts their values back, since a chunk
    // recurring with a changing number (a changelog heading, an enumerated link) is not a loop.
    let key = this.chars.slice(start, end - this.base);
    for (let i = start; i < end - this.base; i++) if (this.digits[i]) key += `\u0000${this.digits[i]}`;
    this.onSegment({
      text: key,
      letters: countLetters(this.chars, start, end - this.base),
      origStart: this.orig[start]!,
      structured: this.lineIsStructured(lineStart, end - this.base),
    });
  }

  private trim(): void {
    const drop = this.chars.length - this.window;
    this.chars = this.chars.slice(drop);
    this.orig.splice(0, drop);
    this.digits.splice(0, drop);
    this.base += drop;
  }
}
