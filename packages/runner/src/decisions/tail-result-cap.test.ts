import { describe, expect, it } from "vitest";
import { MIN_TAIL_RESULT_CHARS, tailResultCap } from "./tail-result-cap";

const within = (lengths: number[], cap: number) => lengths.reduce((sum, n) => sum + Math.min(n, cap), 0);

describe("tailResultCap", () => {
  it("cuts the large results to one level and keeps the small ones whole", () => {
    const lengths = [500, 20_000, 30_000, 800];
    const cap = tailResultCap(lengths, 11_300)!;
    expect(cap).toBe(5_000);
    expect(within(lengths, cap)).toBeLessThanOrEqual(11_300);
    expect(within(lengths, cap + 1)).toBeGreaterThan(11_300);
  });

  it("is the largest cap that fits, for any lengths and target", () => {
    for (let round = 0; round < 200; round++) {
      const lengths = Array.from({ length: 1 + (round % 7) }, (_, i) => 100 + ((round * 7919 + i * 104_729) % 50_000));
      const target = 1_000 + ((round * 15_485_863) % 60_000);
      const cap = tailResultCap(lengths, target);
      if (cap === undefined) {
        expect(within(lengths, MIN_TAIL_RESULT_CHARS)).toBeGreaterThan(target);
        continue;
      }
      expect(within(lengths, cap)).toBeLessThanOrEqual(Math.max(target, within(lengths, Infinity)));
      if (within(lengths, Infinity) > target) expect(within(lengths, cap + 1)).toBeGreaterThan(target);
    }
  });

  it("cannot tell a turn to fit when even the smallest cap each is too much", () => {
    expect(tailResultCap([10_000, 10_000, 10_000], 3 * MIN_TAIL_RESULT_CHARS - 1)).toBeUndefined();
  });
});
