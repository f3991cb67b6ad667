// A three-level tree whose top run also holds a `shell` tool: shared by the grant tests and the
// process that resumes their park. Every tool that runs writes a line to `logFile`.
import { appendFileSync } from "node:fs";
import { z } from "zod";
import { defineSubRunTool, defineTool, type Tool } from "../src/index";

export function grantTools(logFile: string): { top: readonly Tool[]; deploy: Tool; shell: Tool } {
  const shell = defineTool({
    name: "shell",
    description: "runs a command (the top-level run's own tool)",
    input: z.object({ command: z.string() }),
    execute: ({ command }) => {
      appendFileSync(logFile, `shell ${command}\n`);
      return "ran";
    },
  });
  const deploy = defineTool({
    name: "deploy",
    description: "deploys a service",
    input: z.object({ target: z.string() }),
    permission: "ask",
    execute: ({ target }) => {
      appendFileSync(logFile, `deploy ${target}\n`);
      return `deployed ${target}`;
    },
  });
  const ship = defineSubRunTool({
    name: "ship",
    description: "ship one service",
    input: z.object({ service: z.string() }),
    task: ({ service }) => ({ objective: `deploy ${service}`, model: "kid", tools: [deploy] }),
  });
  const release = defineSubRunTool({
    name: "release",
    description: "run a release",
    input: z.object({ version: z.string() }),
    task: ({ version }) => ({ objective: `release ${version}`, model: "kid", tools: [ship] }),
  });
  return { top: [release, shell], deploy, shell };
}
