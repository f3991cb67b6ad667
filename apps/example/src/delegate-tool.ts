import { defineSubRunTool, type Tool } from "@x/runner";
import { z } from "zod";
import { SANDBOX_PERMISSIONS, sandboxTools, type SandboxToolsOptions } from "./sandbox/tools";

/** What a helper may do: look and write (a person approves each write), never run commands or delegate again. */
const HELPER_TOOLS: ReadonlySet<string> = new Set(["list_files", "read_file", "write_file"]);

const HELPER_PROMPT = [
  "You are a helper of x-agent, working inside its sandbox folder on one part of a larger task.",
  "list_files and read_file look at files; write_file creates or replaces a file, and a person approves each write.",
  "Do only what you were asked. End with one or two sentences on what you did.",
].join("\n");

/**
 * `delegate({ task })`: hands one self-contained part of the task to a helper — a sub-run with only
 * the file tools, under the parent's policy (it can only narrow it) and half the budget left. Its
 * writes wait for a person like the parent's, shown with the path of runs above them.
 */
export function delegateTool(options: SandboxToolsOptions): Tool {
  return defineSubRunTool({
    name: "delegate",
    description:
      "Hand one self-contained part of the task to a helper agent that can list, read and write files in " +
      "the sandbox (no shell). Say in `task` exactly what it must do; its answer comes back as the result.",
    input: z.object({ task: z.string().min(1).describe("What the helper must do, in your own words") }),
    // Delegating is harmless in itself: every write the helper makes waits for a person.
    permission: "allow",
    task: ({ task }) => ({
      objective: task,
      systemPrompt: HELPER_PROMPT,
      tools: sandboxTools(options).filter((tool) => HELPER_TOOLS.has(tool.name)),
      permissions: SANDBOX_PERMISSIONS,
      maxTurns: 10,
      budgetShare: 0.5,
    }),
  });
}

/** The agent's instructions with a line on `delegate` beside those on the sandbox's tools (before the closing one). */
export function agentPrompt(base: string): string {
  const lines = base.split("\n");
  lines.splice(
    -1,
    0,
    "- delegate hands one self-contained part of the task to a helper that can look at and write files.",
  );
  return lines.join("\n");
}

/** The agent's tools in `x-agent run` (and when its park is resumed): the sandbox's, and `delegate`. */
export function agentTools(options: SandboxToolsOptions): Tool[] {
  return [...sandboxTools(options), delegateTool(options)];
}
