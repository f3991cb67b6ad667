import type { StrategyInput } from "../record";
import { labelledSet } from "../conformance/labelled-set";
import { words } from "../tokenize";

/** Small deterministic PRNG (mulberry32), so every backend is measured on the same corpus. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ter",
  "vex",
  "dra",
  "po",
  "sil",
  "un",
  "bar",
  "qui",
  "zen",
  "mor",
  "tal",
  "gre",
  "fo",
];

/** The labelled set's own words plus pseudo-words, about 2,500 in all. */
function vocabulary(): string[] {
  const real = new Set(labelledSet.flatMap((entry) => words(`${entry.problem} ${entry.strategy}`)));
  const random = prng(7);
  const pick = () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]!;
  const made = new Set<string>();
  while (made.size < 2000) made.add(pick() + pick() + pick());
  return [...real, ...made];
}

export interface SyntheticCorpus {
  record(n: number, scope: string): StrategyInput;
  query(n: number): string;
}

export function syntheticCorpus(seed = 1): SyntheticCorpus {
  const vocab = vocabulary();
  const phrase = (random: () => number, length: number) =>
    Array.from({ length }, () => vocab[Math.floor(random() * vocab.length)]).join(" ");
  return {
    record(n, scope) {
      const random = prng(seed * 1_000_003 + n);
      return {
        scope,
        problem: `${phrase(random, 10)} case ${n}`,
        strategy: `${phrase(random, 12)} step ${n}`,
        confidence: n % 4,
        source: "bench",
      };
    },
    query(n) {
      return phrase(prng(seed * 7_919 + n + 0x9e3779b9), 6);
    },
  };
}
