import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replyJson } from "@x/llm-types";
import { outputInstruction, parseOutput } from "./output";

const extractJson = (text: string) => replyJson(text).next().value?.text;

describe("structured output", () => {
  const schema = z.object({ answer: z.number() });
  it("finds JSON in a fence or among prose", () => {
    expect(extractJson('Sure:\n```json\n{"answer": 4}\n```')).toBe('{"answer": 4}');
    expect(extractJson('The result is {"answer": 4}.')).toBe('{"answer": 4}');
  });
  it("parses and validates, naming the bad field", () => {
    expect(parseOutput(schema, '{"answer": 4}')).toEqual({ ok: true, value: { answer: 4 } });
    expect(parseOutput(schema, '{"answer": "4"}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining("answer"),
    });
    expect(parseOutput(schema, "four")).toMatchObject({ ok: false, problem: "the reply is not valid JSON" });
  });
  it("reads the balanced value among prose, where first-brace-to-last-brace read an invalid slice", () => {
    // The text the runner's old reader (first `{` to last `}`) and teacher's scanner disagreed on.
    const text = 'The result is {"answer": 4}. (Checked against {the spec}.)';
    expect(parseOutput(schema, text)).toEqual({ ok: true, value: { answer: 4 } });
    // A second value after the answer does not spoil it, and a value the schema refuses is passed over.
    expect(parseOutput(schema, '{"answer": 4}\nand {"answer": 5}')).toEqual({ ok: true, value: { answer: 4 } });
    expect(parseOutput(schema, 'Draft: {"answer": "x"} Final: {"answer": 5}')).toEqual({
      ok: true,
      value: { answer: 5 },
    });
    expect(parseOutput(z.array(z.number()), "Here: [1, 2]")).toEqual({ ok: true, value: [1, 2] });
    // A value nested in one the schema refused is part of it, never read as the answer.
    expect(parseOutput(schema, '{"result": {"answer": 4}}')).toMatchObject({ ok: false });
  });
  it("asks for the schema's JSON form", () => {
    expect(outputInstruction(schema)).toContain('"answer"');
  });
});
