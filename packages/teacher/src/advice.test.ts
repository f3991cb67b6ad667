import { describe, expect, it } from "vitest";
import { formatAdviceForStudent, parseTeacherAdvice, splitTrailingAdvice } from "./advice";
import { TAKEOVER_ADVICE_PROMPT, TEACHER_PROMPT } from "./prompts";

describe("parseTeacherAdvice", () => {
  it("reads a bare JSON object", () => {
    const advice = parseTeacherAdvice(
      '{"strategy":"Check units first.","correction":"You added hours to minutes.",' +
        '"nextStep":"Convert to minutes.","takeover":false,"confidence":3}',
    );
    expect(advice).toEqual({
      strategy: "Check units first.",
      correction: "You added hours to minutes.",
      nextStep: "Convert to minutes.",
      takeover: false,
      confidence: 3,
    });
  });

  it("finds the object inside a ```json fence", () => {
    const advice = parseTeacherAdvice(
      'Here you go:\n```json\n{"strategy":"s","takeover":true,"confidence":2}\n```\nGood luck.',
    );
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
    expect(advice).toEqual({
      correction: "You should read the file before editing it.",
      takeover: false,
      confidence: 0,
      raw: "  You should read the file before editing it.  ",
    });
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
    expect(parseTeacherAdvice('{"correction":"x","takeover":"true","confidence":"7"}')).toEqual({
      correction: "x",
      takeover: true,
      confidence: 3,
    });
    expect(parseTeacherAdvice('{"correction":"x","confidence":-1.2}').confidence).toBe(0);
    expect(parseTeacherAdvice('{"correction":"x"}').confidence).toBe(0);
  });

  it("treats blank fields as absent", () => {
    expect(parseTeacherAdvice('{"strategy":"  ","correction":"c","nextStep":null,"confidence":1}')).toEqual({
      correction: "c",
      takeover: false,
      confidence: 1,
    });
  });

  it("an empty reply is low-confidence advice with no correction", () => {
    expect(parseTeacherAdvice("")).toEqual({ takeover: false, confidence: 0, raw: "" });
  });
});

describe("splitTrailingAdvice", () => {
  const adviceJson = '{"strategy": "S", "correction": "C", "nextStep": "N", "takeover": true, "confidence": 2}';
  const parsed = { strategy: "S", correction: "C", nextStep: "N", takeover: true, confidence: 2 };

  it("cuts a fenced advice block that closes the reply", () => {
    expect(splitTrailingAdvice(`The answer is 18.\n\n\`\`\`json\n${adviceJson}\n\`\`\`\n`)).toEqual({
      answer: "The answer is 18.",
      advice: parsed,
    });
  });

  it("cuts a bare trailing object, leaving the answer's own code fence alone", () => {
    expect(splitTrailingAdvice(`Run:\n\`\`\`sh\nls {a,b}\n\`\`\`\n${adviceJson}`)).toEqual({
      answer: "Run:\n```sh\nls {a,b}\n```",
      advice: parsed,
    });
  });

  it("leaves the reply whole when what closes it is not advice, not JSON, or not last", () => {
    for (const text of [
      'result: {"total": 18}',
      '{"strategy": 42, "confidence": 1}',
      `${adviceJson}\nThat is all.`,
      '{"strategy": "S",',
      "just text",
    ]) {
      expect(splitTrailingAdvice(text)).toEqual({ answer: text });
    }
  });

  it("takes the outermost object at the tail, with braces inside its strings", () => {
    const text = 'x {"strategy": "match a{2} then }", "confidence": 1}';
    expect(splitTrailingAdvice(text)).toEqual({
      answer: "x",
      advice: { strategy: "match a{2} then }", takeover: false, confidence: 1 },
    });
  });
});

describe("TEACHER_PROMPT and TAKEOVER_ADVICE_PROMPT", () => {
  it("ask for exactly the advice fields the parser reads", () => {
    for (const prompt of [TEACHER_PROMPT, TAKEOVER_ADVICE_PROMPT]) {
      for (const field of ["strategy", "correction", "nextStep", "takeover", "confidence"])
        expect(prompt).toContain(`"${field}"`);
    }
  });
});

describe("formatAdviceForStudent", () => {
  it("renders the fields the student needs, in order", () => {
    expect(
      formatAdviceForStudent({ strategy: "S", correction: "C", nextStep: "N", takeover: false, confidence: 2 }),
    ).toMatch(/went wrong: C[\s\S]*Approach: S[\s\S]*Do next: N/);
  });
});
