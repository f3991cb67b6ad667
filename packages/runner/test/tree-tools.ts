// The three-level tree's tools, shared by the test and the process that resumes its park.
import { appendFileSync } from "node:fs";
import { z } from "zod";
import { defineSubRunTool, defineTool, type Tool } from "../src/index";

export function treeTools(countFile: string): { top: Tool; middle: Tool; deploy: Tool } {
  const deploy = defineTool({
    name: "deploy",
    description: "deploys a service",
    input: z.object({ target: z.string() }),
    permission: "ask",
    execute: ({ target }) => {
      appendFileSync(countFile, `${process.pid} ${target}\n`);
      return `deployed ${target}`;
    },
  });
  const middle = defineSubRunTool({
    name: "ship",
    description: "ship one service",
    input: z.object({ service: z.string() }),
    task: ({ service }) => ({ objective: `deploy ${service}`, model: "kid", tools: [deploy] }),
  });
  const top = defineSubRunTool({
    name: "release",
    description: "run a release",
    input: z.object({ version: z.string() }),
    task: ({ version }) => ({ objective: `release ${version}`, model: "kid", tools: [middle] }),
  });
  return { top, middle, deploy };
}
