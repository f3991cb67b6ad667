// Type tests (checked by the package's `tsc --noEmit`, never run): what a tool author's editor
// infers from `defineTool`, so a change that widens `args` to `any` or `unknown` fails the build.
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod/v4";
import { defineTool, type Tool, type ToolContext } from "./define-tool";

describe("defineTool", () => {
  it("types execute's arguments as the input schema's output", () => {
    const tool = defineTool({
      name: "weather",
      description: "Current weather for a city",
      input: z.object({ city: z.string(), days: z.number().int().default(1), units: z.enum(["c", "f"]).optional() }),
      execute: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; units?: "c" | "f" | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        return `${args.city}: sunny`;
      },
    });
    expectTypeOf(tool).toEqualTypeOf<Tool>();
  });

  it("follows transforms: execute sees the parsed value, not the wire value", () => {
    defineTool({
      name: "when",
      description: "A date",
      input: z.object({ at: z.string().transform((s) => new Date(s)) }),
      execute: (args) => {
        expectTypeOf(args.at).toEqualTypeOf<Date>();
        return args.at.toISOString();
      },
    });
  });

  it("refuses an execute that reads a field the schema does not have", () => {
    defineTool({
      name: "echo",
      description: "Echo",
      input: z.object({ text: z.string() }),
      // @ts-expect-error `txt` is not in the input schema
      execute: (args) => args.txt,
    });
  });

  it("refuses an execute whose declared argument type disagrees with the schema", () => {
    defineTool({
      name: "echo",
      description: "Echo",
      input: z.object({ text: z.string() }),
      // @ts-expect-error `text` is a string, not a number
      execute: (args: { text: number }) => args.text,
    });
  });
});
