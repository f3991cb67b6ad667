import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ToolDefinitionError } from "./define-tool";

describe("defineTool", () => {
  it("derives the wire schema from the zod input with z.toJSONSchema", () => {
    const tool = defineTool({
      name: "read_file",
      description: "Reads a file",
      input: z.object({ path: z.string().describe("file path"), lines: z.number().int().optional() }),
      readOnly: true,
      execute: ({ path }) => `contents of ${path}`,
    });
    expect(tool.spec.name).toBe("read_file");
    expect(tool.spec.parameters).toMatchObject({
      type: "object",
      properties: { path: { type: "string", description: "file path" } },
      required: ["path"],
    });
    expect(tool.spec.parameters).not.toHaveProperty("$schema");
    expect(tool.readOnly).toBe(true);
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it("refuses a name the wire cannot carry", () => {
    expect(() => defineTool({ name: "has space", description: "", input: z.object({}), execute: () => "" })).toThrow(
      ToolDefinitionError,
    );
  });

  it("refuses an input schema with no JSON Schema form", () => {
    expect(() =>
      defineTool({ name: "t", description: "", input: z.object({ when: z.date() }), execute: () => "" }),
    ).toThrow(/no JSON Schema form/);
  });

  it("refuses a timeout a timer cannot hold and a permission outside the closed set", () => {
    for (const timeoutMs of [0, -5, 1.5, 2 ** 31, Number.NaN]) {
      expect(
        () => defineTool({ name: "t", description: "", input: z.object({}), timeoutMs, execute: () => "" }),
        String(timeoutMs),
      ).toThrow(ToolDefinitionError);
    }
    expect(() =>
      defineTool({ name: "t", description: "", input: z.object({}), permission: "Auto" as "auto", execute: () => "" }),
    ).toThrow(/permission/);
  });
});
