import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRepetitionGuard, DEFAULT_REPETITION_GUARD_OPTIONS, type GuardVerdict } from "./repetition-guard";

const VOCABULARY = (
  "model runner tool call schema file summary check value table host config network retry budget token cache " +
  "prompt answer result error signal stream chunk guard loop prefix window period block copy drift number " +
  "reads writes opens closes sends waits finds keeps drops parses builds starts ends cuts runs fails passes"
).split(" ");

const word = fc.constantFrom(...VOCABULARY);
const sentence = fc.array(word, { minLength: 3, maxLength: 25 }).map((words) => words.join(" ") + ". ");
const prefix = fc
  .array(word, { minLength: 0, maxLength: 30 })
  .map((words) => (words.length ? words.join(" ") + " " : "") + "Okay, here it goes:\n");

function feed(text: string, chunk: number): { verdict: GuardVerdict; fed: number; kept: string } {
  const guard = createRepetitionGuard();
  let fed = 0;
  for (let i = 0; i < text.length; i += chunk) {
    const delta = text.slice(i, i + chunk);
    fed += delta.length;
    const verdict = guard.push(delta);
    if (verdict.cut) return { verdict, fed, kept: guard.text.slice(0, verdict.keep) };
  }
  return { verdict: { cut: false }, fed, kept: guard.text };
}

/** Enough copies of a unit of length p to pass every threshold with room to spare. */
const copiesFor = (p: number) =>
  Math.ceil(
    (Math.max(DEFAULT_REPETITION_GUARD_OPTIONS.minCoveredChars, DEFAULT_REPETITION_GUARD_OPTIONS.minRepeats * p) +
      600) /
      p,
  ) + 2;

describe("repetition guard properties", () => {
  it("a prefix then a looping sentence is cut soon after the loop starts, keeping the prefix, at most 2 copies", () => {
    fc.assert(
      fc.property(prefix, sentence, fc.integer({ min: 1, max: 97 }), (head, unit, chunk) => {
        const text = head + unit.repeat(copiesFor(unit.length));
        const { verdict, fed, kept } = feed(text, chunk);
        expect(verdict.cut).toBe(true);
        const bound = Math.max(
          DEFAULT_REPETITION_GUARD_OPTIONS.minCoveredChars,
          DEFAULT_REPETITION_GUARD_OPTIONS.minRepeats * unit.length,
        );
        expect(fed).toBeLessThanOrEqual(head.length + bound + DEFAULT_REPETITION_GUARD_OPTIONS.checkEvery + chunk);
        expect(kept.startsWith(head.trimEnd())).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(head.length + 2 * unit.length);
      }),
      { numRuns: 150 },
    );
  });

  it("a looping sentence whose number changes every copy is cut too", () => {
    fc.assert(
      fc.property(
        prefix,
        fc.array(word, { minLength: 6, maxLength: 20 }),
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        (head, words, at, chunk) => {
          const slot = at % words.length;
          const copy = (n: number) => [...words.slice(0, slot), String(n), ...words.slice(slot)].join(" ") + ". ";
          const unitLength = copy(1).length;
          const text = head + Array.from({ length: copiesFor(unitLength) + 2 }, (_, i) => copy(i + 1)).join("");
          expect(feed(text, chunk).verdict.cut).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("the verdict does not depend on how the text was split", () => {
    fc.assert(
      fc.property(
        prefix,
        sentence,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 97 }),
        (head, unit, copies, chunk) => {
          const text = head + unit.repeat(copies);
          expect(feed(text, chunk).verdict).toEqual(feed(text, 1).verdict);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("varied prose is never cut", () => {
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 20, maxLength: 200 }),
        fc.integer({ min: 1, max: 97 }),
        (sentences, chunk) => {
          expect(feed(sentences.join(""), chunk).verdict.cut).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
