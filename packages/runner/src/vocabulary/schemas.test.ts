import { fauxText } from "@x/brain-faux";
import { SchemaValidationError } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import type { Tool } from "./define-tool";
import { recorder, setup } from "../../test/harness";

async function refusal(run: Promise<unknown>): Promise<SchemaValidationError> {
  const error = await run.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SchemaValidationError);
  return error as SchemaValidationError;
}

describe("task spec tool list", () => {
  it("two tools with one name are refused before any model call", async () => {
    const { runner, brain } = setup(() => fauxText("ok"));
    const tools = [recorder("echo").tool, recorder("echo").tool];
    const error = await refusal(runner.runTask({ objective: "x", tools }));
    expect(error.message).toMatch(/tools.*two tools are named "echo"/);
    expect(brain.calls).toHaveLength(0);
  });

  it("an entry that is not a tool is refused naming its index", async () => {
    const { runner } = setup(() => fauxText("ok"));
    const tools = [recorder("a").tool, { name: "b" }] as unknown as Tool[];
    const error = await refusal(runner.runTask({ objective: "x", tools }));
    expect(error.issues.map((issue) => issue.path)).toContain("tools[1]");
  });

  it("a list that passed is checked again once an entry is replaced or added in place", async () => {
    const { runner } = setup(() => fauxText("ok"));
    const tools: Tool[] = [recorder("a").tool, recorder("b").tool];
    expect((await runner.runTask({ objective: "x", tools })).status).toBe("completed");
    expect((await runner.runTask({ objective: "x", tools })).status).toBe("completed");
    tools[1] = { name: "b" } as unknown as Tool;
    expect((await refusal(runner.runTask({ objective: "x", tools }))).issues.map((i) => i.path)).toContain("tools[1]");
    tools[1] = recorder("b").tool;
    tools.push(recorder("a").tool);
    expect((await refusal(runner.runTask({ objective: "x", tools }))).message).toMatch(/two tools are named "a"/);
  });
});
