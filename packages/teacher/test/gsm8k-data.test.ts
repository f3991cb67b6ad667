import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseCsv } from "../bench/csv";
import { extractFinalNumber, extractorAgreement, loadGsm8k, locateGsm8kData } from "../bench/gsm8k-data";

describe("locateGsm8kData", () => {
  it("is the copy inside the repository (bench/data/routellm-gsm8k), with its licence and source", () => {
    const dir = locateGsm8kData();
    expect(dir).toBe(resolve(import.meta.dirname, "..", "bench", "data", "routellm-gsm8k"));
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("lm-sys/RouteLLM");
    expect(readme).toContain("0b64fdafe049e596a3f5657c219329f24af24198");
  });
  it("GSM8K_DATA_DIR overrides it, and a folder without the files fails loudly", () => {
    vi.stubEnv("GSM8K_DATA_DIR", "/data/gsm8k");
    try {
      expect(locateGsm8kData()).toBe("/data/gsm8k");
    } finally {
      vi.unstubAllEnvs();
    }
    expect(() => loadGsm8k(tmpdir())).toThrow(/ENOENT/);
  });
});

describe("parseCsv", () => {
  it("handles quoted fields with commas, doubled quotes and newlines, and CRLF rows", () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n1,\n')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"\nthere'],
      ["1", ""],
    ]);
  });
  it("keeps a last row without a trailing newline", () => {
    expect(parseCsv("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });
});

describe("extractFinalNumber", () => {
  it("prefers #### then 'the answer is' then the last number", () => {
    expect(extractFinalNumber("so 9 * 2 = 18\n#### 18\n\nor 20")).toBe("18");
    expect(extractFinalNumber("It is 1,200 total. The answer is $1,250.")).toBe("1250");
    expect(extractFinalNumber("She makes 9 * $2 = $18 every day.")).toBe("18");
    expect(extractFinalNumber("no digits")).toBeUndefined();
  });
});

describe("the replay data", () => {
  const items = loadGsm8k();
  it("joins all 1,319 questions to their references", () => {
    expect(items).toHaveLength(1319);
    expect(items[0]!.reference).toBe("18");
  });
  it("matches the README's shares (63.8 / 85.7 / 92.9 %)", () => {
    const share = (f: (i: (typeof items)[number]) => boolean) =>
      Math.round((1000 * items.filter(f).length) / items.length) / 10;
    expect(share((i) => i.studentCorrect)).toBe(63.8);
    expect(share((i) => i.teacherCorrect)).toBe(85.7);
    expect(share((i) => i.studentCorrect || i.teacherCorrect)).toBe(92.9);
  });
  it("the number extractor mostly agrees with the recorded True/False", () => {
    const agreement = extractorAgreement(items);
    expect(agreement.student).toBeGreaterThan(0.9);
    expect(agreement.teacher).toBeGreaterThan(0.9);
  });
});
