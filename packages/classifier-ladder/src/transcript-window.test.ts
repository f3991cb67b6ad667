import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transcriptWindow } from "./transcript-window";

const sizes = (full: number[], pinned: number[] = []) => ({
  full,
  condensed: full.map((size) => Math.min(size, 50)),
  pinned: new Set(pinned),
  high: 1_000,
  low: 400,
});

describe("transcriptWindow", () => {
  it("shows everything in full while under the high-water mark", () => {
    expect(transcriptWindow(sizes([100, 200, 300]))).toEqual({ start: 0, condensedUntil: 0 });
  });

  it("a step condenses all but the newest entry, then drops from the front down to the low mark", () => {
    // 6 × 300 passes 1000 at the 4th entry: the first three are condensed (3 × 50 + 300 = 450 > 400), one dropped.
    expect(transcriptWindow(sizes([300, 300, 300, 300]))).toEqual({ start: 1, condensedUntil: 3 });
  });

  it("never counts or drops the pinned entries", () => {
    const window = transcriptWindow(sizes([5_000, 300, 300, 300, 300], [0]));
    expect(window.condensedUntil).toBe(4);
    // Two big pinned entries anywhere in the history are left out of the count: no step at all.
    expect(transcriptWindow(sizes([900, 300, 900, 300], [0, 2]))).toEqual({ start: 0, condensedUntil: 0 });
  });

  it("appending an entry never changes what was decided for the entries before it (a step aside)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 10, max: 900 }), { minLength: 2, maxLength: 80 }), (full) => {
        const before = transcriptWindow(sizes(full.slice(0, -1)));
        const after = transcriptWindow(sizes(full));
        // Either nothing moved (append-only), or a step happened at the new entry: it only moves forward.
        expect(after.start).toBeGreaterThanOrEqual(before.start);
        expect(after.condensedUntil).toBeGreaterThanOrEqual(before.condensedUntil);
        if (after.condensedUntil !== before.condensedUntil) expect(after.condensedUntil).toBe(full.length - 1);
      }),
    );
  });
});
