import { describeIssues } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "./json-schema";

const issues = (schema: Record<string, unknown>, value: unknown) => {
  const parsed = createSchemaCompiler().input(schema).safeParse(value);
  return parsed.success ? [] : describeIssues(parsed.error);
};

describe("createSchemaCompiler", () => {
  const schema = {
    type: "object",
    properties: {
      path: { type: "string" },
      edits: {
        type: "array",
        items: { type: "object", properties: { line: { type: "integer" } }, required: ["line"] },
      },
      mode: { enum: ["a", "b"] },
      when: { type: "string", format: "date" },
    },
    required: ["path"],
    additionalProperties: false,
  };

  it("passes a valid value through unchanged", () => {
    const value = { path: "a", edits: [{ line: 1 }], mode: "a", when: "2026-12-01" };
    expect(createSchemaCompiler().input(schema).parse(value)).toEqual(value);
  });

  it("names every problem by its path, missing properties at the property", () => {
    expect(issues(schema, { edits: [{ line: 1.5 }, {}], mode: "c", when: "soon", extra: 1 })).toEqual(
      expect.arrayContaining([
        { path: "path", message: "required" },
        { path: "edits[0].line", message: "must be integer" },
        { path: "edits[1].line", message: "required" },
        { path: "mode", message: 'must be one of "a", "b"' },
        { path: "when", message: 'must match format "date"' },
        { path: "", message: 'unknown property "extra"' },
      ]),
    );
  });

  it("reads 2020-12 schemas, and a relisted schema with an $id compiles again", () => {
    const compiler = createSchemaCompiler();
    const modern = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "urn:x",
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
    };
    // prefixItems exists only in 2020-12: read as draft-07 it would be ignored and pass.
    expect(compiler.input(modern).safeParse({ pair: ["a", "b"] }).success).toBe(false);
    expect(compiler.input(modern).safeParse({ pair: ["a", 1] }).success).toBe(true);
  });

  it("a schema that is not JSON Schema refuses every value instead of allowing it", () => {
    expect(issues({ type: "object", properties: { a: { $ref: "#/nowhere" } } }, {})[0]!.message).toMatch(
      /not valid JSON Schema/,
    );
  });
});
