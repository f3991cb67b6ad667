// The three-level tree of tree-tools.ts, whose top run also holds a `shell` tool: shared by the
// grant tests and the process that resumes their park. A tool that runs writes a line to `logFile`.
import { appendFileSync } from "node:fs";
import { z } from "zod";
import { defineTool, type Tool } from "../src/index";
import { treeTools } from "./tree-tools";

export function grantTools(logFile: string): { top: readonly Tool[]; shell: Tool } {
  const shell = defineTool({
    name: "shell",
    description: "runs a command (the top-level run's own tool)",
    input: z.object({ command: z.string() }),
    execute: ({ command }) => {
      appendFileSync(logFile, `shell ${command}\n`);
      return "ran";
    },
  });
  return { top: [treeTools(logFile).top, shell], shell };
}
