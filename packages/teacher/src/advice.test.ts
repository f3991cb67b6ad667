import { describe, expect, it } from "vitest";
import { formatAdviceForStudent, parseTeacherAdvice } from "./advice";
import { TEACHER_PROMPT } from "./prompts";

describe("parseTeacherAdvice", () => {
  it("reads a bare JSON object", () => {
    const advice = parseTeacherAdvice('{"strategy":"Check units first.","correction":"You added hours to minutes.","nextStep":"Convert to minutes.","takeover":false,"confidence":3}');
    expect(advice).toEqual({ strategy: "Check units first.", correction: "You added hours to minutes.", nextStep: "Convert to minutes.", takeover: false, confidence: 3 });
  });

  it("finds the object inside a ```json fence", () => {
    const advice = parseTeacherAdvice('Here you go:\n```json\n{"strategy":"s","takeover":true,"confidence":2}\n```\nGood luck.');
    expect(advice).toEqual({ strategy: "s", takeover: true, confidence: 2 });
  });

  it("finds the object embedded in prose, braces inside strings included", () => {
    const advice = parseTeacherAdvice('I think {"correction":"the regex `a{2}` is wrong","confidence":1} is the key.');
    expect(advice).toEqual({ correction: "the regex `a{2}` is wrong", takeover: false, confidence: 1 });
  });

  it("skips a JSON object that is not advice and keeps looking", () => {
    const advice = parseTeacherAdvice('The tool got {"path":"/tmp"}; advice: {"nextStep":"use /var","confidence":2}');
    expect(advice).toEqual({ nextStep: "use /var", takeover: false, confidence: 2 });
  });

  it("keeps non-JSON advice as a low-confidence correction with the raw text", () => {
    const advice = parseTeacherAdvice("  You should read the file before editing it.  ");
    expect(advice).toEqual({ correction: "You should read the file before editing it.", takeover: false, confidence: 0, raw: "  You should read the file before editing it.  " });
  });

  it("keeps malformed JSON as raw text", () => {
    const text = '{"strategy": "unterminated';
    expect(parseTeacherAdvice(text)).toEqual({ correction: text, takeover: false, confidence: 0, raw: text });
  });

  it("rejects wrongly typed fields rather than guessing", () => {
    const text = '{"strategy": 42, "confidence": 2}';
    expect(parseTeacherAdvice(text).raw).toBe(text);
  });

  it("coerces string flags and clamps confidence to 0..3; missing confidence means 0", () => {
    expect(parseTeacherAdvice('{"correction":"x","takeover":"true","confidence":"7"}')).toEqual({ correction: "x", takeover: true, confidence: 3 });
    expect(parseTeacherAdvice('{"correction":"x","confidence":-1.2}').confidence).toBe(0);
    expect(parseTeacherAdvice('{"correction":"x"}').confidence).toBe(0);
  });

  it("treats blank fields as absent", () => {
    expect(parseTeacherAdvice('{"strategy":"  ","correction":"c","nextStep":null,"confidence":1}')).toEqual({ correction: "c", takeover: false, confidence: 1 });
  });

  it("an empty reply is low-confidence advice with no correction", () => {
    expect(parseTeacherAdvice("")).toEqual({ takeover: false, confidence: 0, raw: "" });
  });
});

describe("TEACHER_PROMPT", () => {
  it("asks for exactly the advice fields the parser reads", () => {
    for (const field of ["strategy", "correction", "nextStep", "takeover", "confidence"]) expect(TEACHER_PROMPT).toContain(`"${field}"`);
  });
});

describe("formatAdviceForStudent", () => {
  it("renders the fields the student needs, in order", () => {
    expect(formatAdviceForStudent({ strategy: "S", correction: "C", nextStep: "N", takeover: false, confidence: 2 })).toMatch(/went wrong: C[\s\S]*Approach: S[\s\S]*Do next: N/);
  });
});
