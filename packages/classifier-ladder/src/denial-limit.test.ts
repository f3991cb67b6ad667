import { describe, expect, it } from "vitest";
import { createDenialLimit } from "./denial-limit";
import { ClassifierConfigError } from "./errors";

const block = { verdict: "block" } as const;
const allow = { verdict: "allow" } as const;
const unavailable = { verdict: "unavailable" } as const;
const parseError = { verdict: "parse_error" } as const;

describe("createDenialLimit", () => {
  it("trips after 3 consecutive blocks by default and hands the call to a person, or stops", () => {
    const limit = createDenialLimit();
    limit.record(block);
    limit.record(block);
    expect(limit.route(true)).toBe("classify");
    expect(limit.record(block)).toMatchObject({ consecutiveBlocks: 3, tripped: "consecutive_blocks" });
    expect(limit.route(true)).toBe("ask");
    expect(limit.route(false)).toBe("stop");
  });

  it("an allow ends the streak; 20 blocks in total trip it anyway", () => {
    const limit = createDenialLimit();
    for (let i = 0; i < 9; i++) {
      limit.record(block);
      limit.record(block);
      limit.record(allow);
    }
    expect(limit.state).toMatchObject({ totalBlocks: 18, consecutiveBlocks: 0 });
    expect(limit.state.tripped).toBeUndefined();
    limit.record(block);
    limit.record(allow);
    expect(limit.record(block).tripped).toBe("total_blocks");
  });

  it("unavailability is not a denial but has its own streak limit", () => {
    const limit = createDenialLimit();
    limit.record(block);
    limit.record(block);
    limit.record(unavailable);
    expect(limit.state).toMatchObject({ consecutiveBlocks: 2, totalBlocks: 2, consecutiveUnavailable: 1 });
    expect(limit.state.tripped).toBeUndefined();
    limit.record(parseError);
    expect(limit.record(unavailable).tripped).toBe("consecutive_unavailable");
  });

  it("a person's decision clears a streak trip but not a total one", () => {
    const limit = createDenialLimit({ maxConsecutive: 2, maxTotal: 3 });
    limit.record(block);
    limit.record(block);
    expect(limit.state.tripped).toBe("consecutive_blocks");
    expect(limit.personDecided()).toEqual({ consecutiveBlocks: 0, totalBlocks: 2, consecutiveUnavailable: 0 });
    expect(limit.route(false)).toBe("classify");
    limit.record(block);
    expect(limit.state.tripped).toBe("total_blocks");
    expect(limit.personDecided().tripped).toBe("total_blocks");
    expect(limit.reset()).toEqual({ consecutiveBlocks: 0, totalBlocks: 0, consecutiveUnavailable: 0 });
  });

  it("honours custom limits and refuses nonsense ones", () => {
    const limit = createDenialLimit({ maxConsecutive: 1 });
    expect(limit.record(block).tripped).toBe("consecutive_blocks");
    expect(limit.limits).toEqual({ maxConsecutive: 1, maxTotal: 20, maxConsecutiveUnavailable: 3 });
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => createDenialLimit({ maxTotal: bad })).toThrow(ClassifierConfigError);
  });

  it("resumes from a stored state exactly, including a cleared trip that a replay would re-trip", () => {
    const original = createDenialLimit({ maxConsecutive: 1 });
    original.record(block);
    original.personDecided();
    original.record(allow);
    const stored = JSON.parse(JSON.stringify(original.state));
    const resumed = createDenialLimit({ maxConsecutive: 1, state: stored });
    expect(resumed.state).toEqual({ consecutiveBlocks: 0, totalBlocks: 1, consecutiveUnavailable: 0 });
    expect(resumed.route(false)).toBe("classify");
    expect(
      createDenialLimit({
        state: { consecutiveBlocks: 1, totalBlocks: 20, consecutiveUnavailable: 0, tripped: "total_blocks" },
      }).route(true),
    ).toBe("ask");
  });

  it("keeps its state in the host's holder, screened on the way in, and replaces it on every step", () => {
    const run = { denials: JSON.parse('{"consecutiveBlocks":1,"totalBlocks":4,"consecutiveUnavailable":0}') };
    const limit = createDenialLimit({ maxConsecutive: 2, holder: run });
    const before = run.denials;
    limit.record(block);
    expect(run.denials).toBe(limit.state);
    expect(run.denials).toEqual({
      consecutiveBlocks: 2,
      totalBlocks: 5,
      consecutiveUnavailable: 0,
      tripped: "consecutive_blocks",
    });
    expect(before).toEqual({ consecutiveBlocks: 1, totalBlocks: 4, consecutiveUnavailable: 0 });
    limit.personDecided();
    expect(run.denials).toEqual({ consecutiveBlocks: 0, totalBlocks: 5, consecutiveUnavailable: 0 });
    const forged = { denials: { consecutiveBlocks: 3, totalBlocks: 1, consecutiveUnavailable: 0 } };
    expect(() => createDenialLimit({ holder: forged })).toThrow(ClassifierConfigError);
  });

  it("refuses a stored state that cannot be real", () => {
    const bad = [
      { consecutiveBlocks: -1, totalBlocks: 0, consecutiveUnavailable: 0 },
      { consecutiveBlocks: 2, totalBlocks: 1, consecutiveUnavailable: 0 },
      { consecutiveBlocks: 0, totalBlocks: 0, consecutiveUnavailable: 0, tripped: "bored" },
      { consecutiveBlocks: "1", totalBlocks: 1, consecutiveUnavailable: 0 },
    ];
    for (const state of bad) expect(() => createDenialLimit({ state: state as never })).toThrow(ClassifierConfigError);
  });
});
