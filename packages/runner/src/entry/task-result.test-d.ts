// Type tests (checked by the package's `tsc --noEmit`, never run): a spec's `output` schema types
// the result's `structured` on every path that can end a run.
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod/v4";
import type { TaskResult, TaskSpec } from "../vocabulary/types";
import type { Runner } from "../vocabulary/runner-api";

declare const runner: Runner;
const Answer = z.object({ city: z.string(), population: z.number() });
type Answer = z.output<typeof Answer>;

describe("TaskResult<T>", () => {
  it("runTask with an output schema types structured as the schema's output", async () => {
    const result = await runner.runTask({ objective: "Largest city in France?", output: Answer });
    expectTypeOf(result).toEqualTypeOf<TaskResult<Answer>>();
    expectTypeOf(result.structured).toEqualTypeOf<Answer | undefined>();
  });

  it("runTask without one leaves structured unknown", async () => {
    const result = await runner.runTask({ objective: "Say hi" });
    expectTypeOf(result.structured).toEqualTypeOf<unknown>();
    const spec: TaskSpec = { objective: "Say hi", output: Answer };
    // A spec typed as the wide TaskSpec has lost its schema's type: nothing is promised.
    expectTypeOf((await runner.runTask(spec)).structured).toEqualTypeOf<unknown>();
  });

  it("a schema with a transform types structured as the parsed value", async () => {
    const output = z.object({ at: z.string().transform((s) => new Date(s)) });
    const result = await runner.runTask({ objective: "When?", output });
    expectTypeOf(result.structured).toEqualTypeOf<{ at: Date } | undefined>();
  });

  it("streamTask, resume and continueRun type their results the same way", async () => {
    const stream = runner.streamTask({ objective: "x", output: Answer });
    expectTypeOf(stream.result()).toEqualTypeOf<Promise<TaskResult<Answer>>>();
    // The property form before `result()` was a method: still the promise, for one deprecation cycle.
    expectTypeOf(await stream.result).toEqualTypeOf<TaskResult<Answer>>();
    const resumed = await runner.resume({}, { decision: "approve" }, { output: Answer });
    expectTypeOf(resumed.structured).toEqualTypeOf<Answer | undefined>();
    const continued = await runner.continueRun({}, { output: Answer });
    expectTypeOf(continued.structured).toEqualTypeOf<Answer | undefined>();
  });

  it("a spec still refuses a field it does not have", async () => {
    // @ts-expect-error `maxTurn` is not a TaskSpec field (excess-property checks survive the generic)
    await runner.runTask({ objective: "x", output: Answer, maxTurn: 3 });
  });
});
