// Type tests (checked by the package's `tsc --noEmit`, never run): TaskSpec is declared once as a
// type with its documentation and once as the schema that checks a spec from outside; the compiler
// holds the two to the same fields and the same types, `model` included.
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod/v4";
import type { TaskModelRefSchema, TaskSpecSchema } from "../vocabulary/schemas";
import type { TaskSpec } from "../vocabulary/types";

describe("TaskSpecSchema", () => {
  it("checks exactly the fields TaskSpec declares, and yields a TaskSpec", () => {
    expectTypeOf<z.output<typeof TaskSpecSchema>>().toEqualTypeOf<TaskSpec>();
    expectTypeOf<keyof z.input<typeof TaskSpecSchema>>().toEqualTypeOf<keyof TaskSpec>();
  });

  it("types model as TaskSpec does", () => {
    expectTypeOf<z.output<typeof TaskModelRefSchema>>().toEqualTypeOf<NonNullable<TaskSpec["model"]>>();
  });
});
