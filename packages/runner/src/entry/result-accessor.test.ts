import { createFauxBrain, fauxModel, fauxText } from "@x/brain-faux";
import { SchemaValidationError } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createRunner } from "./runner";

const runnerOf = (text: string) =>
  createRunner({ brains: [createFauxBrain([fauxText(text)])], models: { main: fauxModel() } });

describe("streamTask(...).result: one shape with a brain stream's result()", () => {
  it("is called like a brain stream's result(), after the events, and gives the run's result", async () => {
    const stream = runnerOf("Paris.").streamTask({ objective: "Capital of France?" });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result();
    expect(result).toMatchObject({ status: "completed", output: "Paris." });
    expect(types.at(-1)).toBe("run_end");
    // The same promise each call, and the same one the deprecated property form awaits.
    expect(stream.result()).toBe(stream.result());
    expect(await stream.result).toBe(result);
  });

  it("rejects in both forms when the run throws (a spec that fails its schema)", async () => {
    const stream = runnerOf("never").streamTask({ objective: "x", maxTurns: 0 });
    await expect(stream.result()).rejects.toThrow(SchemaValidationError);
    await expect(stream.result).rejects.toThrow(SchemaValidationError);
  });
});
