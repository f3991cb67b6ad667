// Cost of the repetition guard per MB of streamed text. Prints a table; asserts nothing.
import { performance } from "node:perf_hooks";
import { createRepetitionGuard } from "../src/repetition-guard";

/** Deterministic pseudo-random generator, so every run streams the same text. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  "the model reads a file and then writes a short summary of what it " +
  "found while the runner checks every tool call against its schema " +
  "before anything runs on the host machine because safety matters " +
  "more than speed in an agent loop that may touch production systems"
).split(" ");

function prose(chars: number, seed = 1): string {
  const next = rng(seed);
  let out = "";
  while (out.length < chars) {
    const len = 6 + Math.floor(next() * 14);
    const words = Array.from({ length: len }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    out += words.join(" ") + (next() < 0.2 ? ".\n\n" : ". ");
  }
  return out.slice(0, chars);
}

function markdown(chars: number): string {
  const next = rng(7);
  let out = "";
  let n = 0;
  while (out.length < chars) {
    out += `## Section ${n}\n\n${prose(400, n + 3)}\n\n| id | name | score |\n|---|---|---|\n`;
    for (let i = 0; i < 10; i++)
      out += `| ${n * 10 + i} | item-${Math.floor(next() * 1e6)} | ${(next() * 100).toFixed(2)} |\n`;
    out += "\n```ts\n" + "const x = compute(a, b);\n".repeat(5) + "```\n\n";
    for (let i = 1; i <= 8; i++) out += `${i}. ${prose(60, n * 31 + i)}\n`;
    n++;
  }
  return out.slice(0, chars);
}

function table(chars: number): string {
  let out = "| date | count | status |\n|---|---|---|\n";
  for (let i = 0; out.length < chars; i++)
    out += `| 2024-01-${String((i % 28) + 1).padStart(2, "0")} | ${i * 3} | OK |\n`;
  return out.slice(0, chars);
}

const MB = 1 << 20;
const corpora: Array<[string, string]> = [
  ["prose", prose(MB)],
  ["markdown (tables, code, lists)", markdown(MB)],
  ["long table (no cut, worst case verify)", table(MB)],
];

/**
 * Best of three timed passes (after one warm-up), as wall time and as this process's CPU time.
 * The machine may be shared: CPU time is the steadier of the two under contention.
 */
function measure(text: string, chunk: number): { wallMsPerMb: number; cpuMsPerMb: number; cut: boolean } {
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += chunk) deltas.push(text.slice(i, i + chunk));
  let bestWall = Infinity;
  let bestCpu = Infinity;
  let cut = false;
  for (let round = 0; round < 4; round++) {
    const guard = createRepetitionGuard();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const delta of deltas) {
      if (guard.push(delta).cut) {
        cut = true;
        break;
      }
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (round > 0) {
      bestWall = Math.min(bestWall, wall);
      bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000);
    }
  }
  return { wallMsPerMb: (bestWall * MB) / text.length, cpuMsPerMb: (bestCpu * MB) / text.length, cut };
}

const rows = [];
for (const [name, text] of corpora) {
  for (const chunk of [4, 32, 256]) {
    const { wallMsPerMb, cpuMsPerMb, cut } = measure(text, chunk);
    rows.push({
      corpus: name,
      "delta size": chunk,
      "CPU ms per MB": Number(cpuMsPerMb.toFixed(1)),
      "wall ms per MB": Number(wallMsPerMb.toFixed(1)),
      "MB/s (CPU)": Number((1000 / cpuMsPerMb).toFixed(1)),
      cut,
    });
  }
}
console.table(rows);
