import { describe, expect, it } from "vitest";
import { createRepetitionGuard, type GuardVerdict, type RepetitionGuardOptions } from "./repetition-guard";

/** Streams `text` in `chunk`-sized deltas; returns the verdict and how many characters were fed. */
function stream(
  text: string,
  chunk = 7,
  options?: RepetitionGuardOptions,
): { verdict: GuardVerdict; fed: number; kept: string } {
  const guard = createRepetitionGuard(options);
  let fed = 0;
  for (let i = 0; i < text.length; i += chunk) {
    const delta = text.slice(i, i + chunk);
    fed += delta.length;
    const verdict = guard.push(delta);
    if (verdict.cut) return { verdict, fed, kept: guard.text.slice(0, verdict.keep) };
  }
  return { verdict: { cut: false }, fed, kept: guard.text };
}

/** Deterministic varied prose: random sentences over a small vocabulary. */
function prose(chars: number, seed: number): string {
  const words = (
    "the model reads a file and then writes a short summary of what it found while the runner " +
    "checks every tool call against its schema before anything runs on the host"
  ).split(" ");
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let out = "";
  while (out.length < chars) {
    const length = 6 + Math.floor(next() * 14);
    out +=
      Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(" ") +
      (next() < 0.2 ? ".\n\n" : ". ");
  }
  return out;
}

const PARAGRAPH =
  "The function returns early when the input is empty. Then it walks the list, collecting " +
  "every item whose score is above the threshold, and finally it sorts them by name.\n\n";

describe("repetition guard: real loops are cut within a bounded number of characters", () => {
  it("a single word repeated", () => {
    const prefix = "Sure, here it is: ";
    const { verdict, fed, kept } = stream(prefix + "the ".repeat(2000));
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(prefix.length + 500);
    expect(kept.startsWith(prefix)).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(prefix.length + 8);
  });

  it("a sentence repeated", () => {
    const prefix = "Let me think about this. ";
    const { verdict, fed, kept } = stream(
      prefix + "I will check the configuration file again to be sure. ".repeat(200),
    );
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(600);
    expect(kept).toBe(prefix + "I will check the configuration file again to be sure.");
  });

  it("a paragraph repeated", () => {
    const prefix = "Here is the explanation.\n\n";
    const { verdict, fed, kept } = stream(prefix + PARAGRAPH.repeat(50), 16);
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(prefix.length + PARAGRAPH.length * 5 + 100);
    expect(kept.startsWith(prefix + PARAGRAPH.trim())).toBe(true);
    expect(kept.length).toBeLessThan(prefix.length + PARAGRAPH.length * 2);
  });

  it("a sentence whose counter keeps changing (numeric drift)", () => {
    const loop = Array.from(
      { length: 300 },
      (_, i) => `Attempt ${i + 1}: I will read the file again and compare it with the backup. `,
    ).join("");
    const { verdict, fed, kept } = stream("Starting. " + loop);
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(800);
    expect(kept.startsWith("Starting. Attempt 1: I will read the file again")).toBe(true);
  });

  it("copies with whitespace drift (extra spaces, blank lines)", () => {
    const copies = Array.from(
      { length: 100 },
      (_, i) =>
        `I am sorry for the confusion,${" ".repeat((i % 3) + 1)}let me try that once more.${i % 2 ? "\n\n" : " "}`,
    );
    const { verdict, fed } = stream(copies.join(""));
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(800);
  });

  it("copies with an occasional swapped word (substitution drift)", () => {
    const words = ["file", "code", "test", "docs"];
    const copies = Array.from(
      { length: 100 },
      (_, i) => `Now I need to open the ${words[i % 4]} and look at the function definition carefully. `,
    );
    const { verdict, fed } = stream(copies.join(""));
    expect(verdict.cut).toBe(true);
    expect(fed).toBeLessThan(1000);
  });

  it("a sentence recurring at short regular gaps among varying text (recurrence)", () => {
    // The fillers come in an irregular order and differ in length, so the text has no period.
    const fillers = [
      "Maybe the path is wrong.",
      "Perhaps the cache is stale again today.",
      "It could be a permissions issue, or a flaky runner.",
    ];
    const text = Array.from(
      { length: 40 },
      (_, i) => `Let me look at the failing test once more. ${fillers[(i * i + (i >> 2)) % 3]} `,
    ).join("");
    const { verdict, fed, kept } = stream(text);
    expect(verdict).toMatchObject({ cut: true, reason: "recurring" });
    // The block runs from one occurrence to the next: the sentence plus the filler after it.
    expect(verdict.cut && verdict.period).toBe(text.indexOf("Let me look", 1));
    expect(fed).toBeLessThan(800);
    expect(kept.startsWith("Let me look at the failing test once more. Maybe the path is wrong")).toBe(true);
  });

  it("the verdict does not depend on how the text is split into deltas", () => {
    const text = "Intro. " + "We should retry the request with a longer timeout. ".repeat(40);
    const results = [1, 3, 16, 64, 500].map((chunk) => stream(text, chunk).verdict);
    for (const verdict of results) expect(verdict).toEqual(results[0]);
  });

  it("stays cut: later pushes are ignored and repeat the verdict", () => {
    const guard = createRepetitionGuard();
    let verdict: GuardVerdict = { cut: false };
    while (!verdict.cut) verdict = guard.push("ha ha ha ha ");
    const length = guard.text.length;
    expect(guard.push("something new")).toEqual(verdict);
    expect(guard.text).toHaveLength(length);
  });

  it("a numbered list whose items all say the same thing", () => {
    const items = Array.from({ length: 300 }, (_, i) => `${i + 1}. I will double-check the configuration file.`);
    const { verdict, fed, kept } = stream("Plan:\n" + items.join("\n"));
    expect(verdict).toMatchObject({ cut: true, reason: "periodic" });
    // Lists are data, so the bar is higher (16 copies, 1600 characters), but still bounded.
    expect(fed).toBeLessThan(1800);
    expect(kept).toBe("Plan:\n1. I will double-check the configuration file.");
  });

  it("a loop in prose after a closed code fence is still cut, keeping the fence", () => {
    const fence = "```ts\n" + "retry();\n".repeat(40) + "```\n";
    const { verdict, kept } = stream(fence + "That should do it. " + "The retry loop is now correct. ".repeat(50));
    expect(verdict.cut).toBe(true);
    expect(kept.startsWith(fence + "That should do it. The retry loop is now correct.")).toBe(true);
  });
});

describe("repetition guard: legitimate repetition is not cut", () => {
  it("a long markdown table", () => {
    const rows = Array.from(
      { length: 400 },
      (_, i) => `| 2024-01-${String((i % 28) + 1).padStart(2, "0")} | user-${i} | OK | 0 |`,
    );
    expect(stream("| date | user | status | errors |\n|---|---|---|---|\n" + rows.join("\n")).verdict.cut).toBe(false);
  });

  it("a table whose rows differ only in their numbers", () => {
    const rows = Array.from({ length: 300 }, (_, i) => `| ${i + 1} | pending | ${i * 10} |`);
    expect(stream("| id | state | offset |\n|---|---|---|\n" + rows.join("\n")).verdict.cut).toBe(false);
  });

  it("a 200-item numbered list", () => {
    const items = Array.from({ length: 200 }, (_, i) => `${i + 1}. Item ${i + 1}: check the value`);
    expect(stream(items.join("\n")).verdict.cut).toBe(false);
  });

  it("a long bullet list of similar items", () => {
    const items = Array.from({ length: 200 }, (_, i) => `- Task ${i + 1}: review the pull request`);
    expect(stream(items.join("\n")).verdict.cut).toBe(false);
  });

  it("repeated lines of code inside a fence", () => {
    expect(stream("Here:\n\n```python\n" + "x = x + 1\n".repeat(500) + "```\n").verdict.cut).toBe(false);
    expect(stream("~~~\n" + "    }\n".repeat(500) + "~~~\n").verdict.cut).toBe(false);
  });

  it("repeated lines of indented code without a fence", () => {
    expect(stream("Use this:\n\n" + "    buffer.push(0);\n".repeat(60)).verdict.cut).toBe(false);
  });

  it("a poem with a refrain", () => {
    const stanzas = [
      ["The river runs beneath the hill", "Where willows bend and the air is still"],
      ["The lantern burns in the window light", "A traveller walks through the falling night"],
      ["The ravens call across the field", "And the frozen earth begins to yield"],
      ["The morning breaks on the silver sea", "And the sailors sing of what will be"],
      ["The orchard hums with the summer bees", "And the wind moves softly through the trees"],
      ["The candles fade in the chapel hall", "As the first snow starts to fall"],
      ["The harbour sleeps in the evening haze", "And the old men speak of better days"],
      ["The shepherd counts his wandering sheep", "Before the valley falls asleep"],
    ];
    const poem = stanzas
      .map((lines) => `${lines.join("\n")}\nAnd still I wait for you, my love, and still I wait.\n`)
      .join("\n");
    expect(stream(poem).verdict.cut).toBe(false);
  });

  it("JSON records and CSV rows that differ in their numbers", () => {
    const json = "[\n" + Array.from({ length: 200 }, (_, i) => `  {"id": ${i}, "done": false},`).join("\n") + "\n]";
    const csv =
      "date,count\n" +
      Array.from({ length: 300 }, (_, i) => `2024-02-${String((i % 28) + 1).padStart(2, "0")},${i * 7}`).join("\n");
    expect(stream(json).verdict.cut).toBe(false);
    expect(stream(csv).verdict.cut).toBe(false);
  });

  it("a changelog with recurring headings and links", () => {
    const releases = Array.from(
      { length: 40 },
      (_, i) =>
        `## 1.${40 - i}.0 (2024-03-${String((i % 28) + 1).padStart(2, "0")})\n\n` +
        `Full Changelog: [v1.${39 - i}.0...v1.${40 - i}.0]` +
        `(https://example.com/compare/v1.${39 - i}.0...v1.${40 - i}.0)\n\n` +
        `### Bug Fixes\n\n* fix issue number ${i * 3}\n`,
    );
    expect(stream(releases.join("\n")).verdict.cut).toBe(false);
  });

  it("a long markdown answer mixing headings, prose, tables, code and lists", () => {
    let doc = "";
    for (let n = 0; n < 30; n++) {
      doc += `## Step ${n + 1}\n\n${prose(500, n + 1)}\n\n| key | value | note |\n|---|---|---|\n`;
      for (let i = 0; i < 8; i++) doc += `| k${n}-${i} | ${(n * 37 + i * 11) % 97} | ok |\n`;
      doc += "\n```sh\n" + "pnpm install\npnpm test\n".repeat(4) + "```\n\n";
      for (let i = 1; i <= 6; i++) doc += `${i}. ${prose(50, n * 10 + i)}\n`;
      doc += "\n";
    }
    expect(doc.length).toBeGreaterThan(30_000);
    expect(stream(doc, 11).verdict.cut).toBe(false);
  });

  it("ordinary varied prose, 100 KB of it", () => {
    expect(stream(prose(100_000, 42), 13).verdict.cut).toBe(false);
  });
});

describe("repetition guard options", () => {
  it("minRepeats and minCoveredChars raise the bar", () => {
    const text = "Intro. " + "Checking the logs now. ".repeat(20);
    expect(stream(text, 7, { recurrence: false }).verdict.cut).toBe(true);
    expect(stream(text, 7, { recurrence: false, minRepeats: 25 }).verdict.cut).toBe(false);
    expect(stream(text, 7, { recurrence: false, minCoveredChars: 1000 }).verdict.cut).toBe(false);
  });

  it("maxPeriod bounds the block length looked for", () => {
    const text = "Start. " + PARAGRAPH.repeat(10);
    expect(stream(text, 7, { recurrence: false }).verdict).toMatchObject({ cut: true, reason: "periodic" });
    expect(stream(text, 7, { recurrence: false, maxPeriod: 100 }).verdict.cut).toBe(false);
  });

  it("recurrence: false turns the recurrence detector off", () => {
    const fillers = [
      "Maybe the path is wrong",
      "Perhaps the cache is stale again today",
      "It could be a permissions issue",
      "Or the test is flaky",
    ];
    const text = Array.from(
      { length: 40 },
      (_, i) => `Let me look at the failing test once more. ${fillers[i % 4]}${"!".repeat(i % 3)}. `,
    ).join("");
    expect(stream(text, 7, { recurrence: false }).verdict.cut).toBe(false);
  });
});
