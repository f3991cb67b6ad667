import { describe, expect, it } from "vitest";
import { z } from "zod";
import { extractJson, outputInstruction, parseOutput } from "./output";

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
  it("asks for the schema's JSON form", () => {
    expect(outputInstruction(schema)).toContain('"answer"');
  });
});
