import { fauxText, fauxToolCall } from "@x/brain-faux";
import { defineSubRunTool } from "@x/runner";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWithTeacher } from "./index";
import { advice, editCall, pass, setup, stuck, tools } from "../test/harness";

describe("teacher mode with sub-runs", () => {
  it("a student delegates after teacher advice: the child's spend is the student's, not the teacher's", async () => {
    const { runner, calls } = setup({
      student: [
        editCall,
        editCall,
        editCall,
        fauxToolCall(
          "helper_agent",
          { task: "read the config and report the port" },
          { usage: { input: 50, output: 5 } },
        ),
        fauxToolCall("read", { path: "config.json" }, { usage: { input: 40, output: 4 } }),
        fauxText("port 8080", { usage: { input: 30, output: 3 } }),
        fauxText("The port is 8080.", { usage: { input: 60, output: 6 } }),
      ],
      monitor: [stuck(true)],
      teacher: [
        advice({ correction: "editing is denied; hand the reading to a helper" }, { input: 1000, output: 100 }),
      ],
      verifier: [pass()],
    });
    const { edit, read } = tools();
    const helperAgent = defineSubRunTool({
      name: "helper_agent",
      description: "a helper that reads files",
      input: z.object({ task: z.string() }),
      task: ({ task }) => ({ objective: task, tools: [read] }),
    });
    const result = await runWithTeacher(runner, {
      objective: "what port does the config set?",
      tools: [edit, read, helperAgent],
      maxTurns: 20,
    });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("The port is 8080.");
    expect(result.escalations).toHaveLength(1);
    expect(calls("teacher")).toHaveLength(1);
    expect(result.teacherStats.tokens).toBe(1100);
    // The child ran on the student's model, as part of the student's run, and is counted there.
    expect(result.subRuns).toHaveLength(1);
    expect(result.subRuns![0]!.result.output).toBe("port 8080");
    expect(result.stats.children).toEqual([expect.objectContaining({ toolName: "helper_agent", tokens: 77 })]);
    // The student's stats hold the child's tokens and not the teacher's.
    expect(result.stats.tokens).toBeGreaterThanOrEqual(77 + 66);
    expect(result.stats.tokens).toBeLessThan(1100);
  });
});
