import type { ToolCall, ToolResultMessage } from "@x/llm-types";
import type { z } from "zod/v4";
import { defineTool, type Tool, type ToolOutput } from "../vocabulary/define-tool";
import { runSubTask, SubRunError } from "./sub-run";
import type { SubRunSpec } from "../vocabulary/sub-run-types";
import { toResult } from "../effects/tools";
import type { Permission, TaskResult } from "../vocabulary/types";

export interface SubRunToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  /** The arguments the parent model calls the tool with. */
  input: S;
  /** The child task for one call's arguments. Called again on resume, so keep it a plain function of `args`. */
  task(args: z.infer<S>): SubRunSpec;
  /**
   * What the parent model sees of a child that completed. Default: its structured answer as JSON,
   * else its final text. A child that did not complete is always a typed error result.
   */
  shape?(result: TaskResult, args: z.infer<S>): ToolOutput | string;
  /** Default permission of the delegating call itself. */
  permission?: Permission;
  /** Deadline for the whole child run. Default: the spec's `toolTimeoutMs`. */
  timeoutMs?: number;
}

/** How a sub-run tool's child is rebuilt on resume: its planned spec and its result shaping. */
interface SubRunToolPlan {
  plan(args: unknown): SubRunSpec;
  shape(result: TaskResult, args: unknown): ToolOutput | string;
}

/**
 * The key a sub-run tool carries its plan under: the tool object holds it as its own data (frozen
 * with it), read back when its parked child resumes; not on the public Tool type.
 */
const SUB_RUN_PLAN = Symbol("x.subRunPlan");

type PlannedTool = Tool & { readonly [SUB_RUN_PLAN]?: SubRunToolPlan };

function planOf(tool: PlannedTool | undefined): SubRunToolPlan | undefined {
  return tool?.[SUB_RUN_PLAN];
}

/** A child that ended any way but `completed`: an error result the parent model can read and react to. */
function failedChild(result: TaskResult): ToolOutput {
  return {
    content: [
      {
        type: "text",
        text:
          `The sub-task ended ${result.status} (${result.terminal.code}): ` +
          `${result.terminal.message}. Its work is not done; decide what to do next.`,
      },
    ],
    isError: true,
    details: {
      error: "sub_run_failed",
      status: result.status,
      code: result.terminal.code,
      runId: result.runId,
    },
  };
}

function defaultShape(result: TaskResult): ToolOutput | string {
  return result.structured !== undefined ? JSON.stringify(result.structured) : result.output;
}

function childOutput(result: TaskResult, shaped: () => ToolOutput | string): ToolOutput | string {
  return result.status === "completed" ? shaped() : failedChild(result);
}

/**
 * A child task as a tool the parent model calls with typed arguments: each call runs
 * `task(args)` as a sub-run (see `runSubTask`) and hands its result back as the tool result. A
 * sub-run that cannot start (depth or count limit, a bad spec) is an error result too.
 */
export function defineSubRunTool<S extends z.ZodType>(definition: SubRunToolDefinition<S>): Tool {
  const shape = (result: TaskResult, args: z.infer<S>) =>
    childOutput(result, () => (definition.shape ? definition.shape(result, args) : defaultShape(result)));
  const tool = defineTool({
    name: definition.name,
    description: definition.description,
    input: definition.input,
    ...(definition.permission !== undefined ? { permission: definition.permission } : {}),
    ...(definition.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
    execute: async (args, context) => {
      try {
        return shape(await runSubTask(context, definition.task(args)), args);
      } catch (error) {
        if (!(error instanceof SubRunError) || error.code === "parked") throw error;
        return {
          content: [{ type: "text", text: `The sub-task could not start (${error.code}): ${error.message}.` }],
          isError: true,
          details: { error: "sub_run_refused", code: error.code },
        };
      }
    },
  });
  const plan: SubRunToolPlan = {
    plan: (args) => definition.task(definition.input.parse(args)),
    shape: (result, args) => shape(result, definition.input.parse(args)),
  };
  return Object.freeze({ ...tool, [SUB_RUN_PLAN]: plan });
}

/** The resumed child's planned spec, when the tool was made by `defineSubRunTool`. */
export function plannedChild(tool: Tool | undefined, args: unknown): SubRunSpec | undefined {
  return planOf(tool)?.plan(args);
}

/**
 * A resumed child's result as the parent's tool result: shaped by its sub-run tool, or — for a
 * child a host's own `execute` started, whose remaining code does not run again — by the default.
 */
export function resumedChildResult(
  tool: Tool | undefined,
  call: ToolCall,
  result: TaskResult,
  now: number,
): ToolResultMessage {
  const plan = planOf(tool);
  const output = plan ? plan.shape(result, call.arguments) : childOutput(result, () => defaultShape(result));
  return toResult(call, output, now);
}
