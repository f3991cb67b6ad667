import {
  describeIssues,
  ImageContentSchema,
  taggedUnion,
  TextContentSchema,
  type ToolCall,
  type ToolResultMessage,
  describeError,
} from "@x/llm-types";
import { z } from "zod/v4";
import type { Tool, ToolOutput, ToolProgress } from "../vocabulary/define-tool";
import { findTool } from "../decisions/tool-grant";
import { linkedToolContext, type SubRunLink } from "./sub-run-link";
import { callElicitor } from "./elicitation";
import { ElicitationError } from "../vocabulary/elicitation";
import { markStopped } from "./stopped-result";

export interface ToolRunContext {
  runId: string;
  sessionId?: string;
  /** The run's signal: aborting it reaches the running tool. */
  signal: AbortSignal;
  defaultTimeoutMs: number;
  now(): number;
  /** Where the tool's progress reports go. */
  onProgress: (update: ToolProgress) => void;
  /** Lets the tool start sub-runs of this run. */
  link?: SubRunLink;
}

/** A tool result the model sees as failed; the run goes on. */
export function errorResult(
  call: Pick<ToolCall, "id" | "name">,
  text: string,
  details?: unknown,
  now?: number,
): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError: true,
  };
  if (details !== undefined) message.details = details;
  if (now !== undefined) message.timestamp = now;
  return message;
}

export type CallCheck = { ok: true; tool: Tool; args: unknown } | { ok: false; result: ToolResultMessage };

/**
 * Everything that can be said about a call before any permission or execution: the tool exists
 * and was granted to this run (a tool `withheld` from it — the host's or an ancestor's — is a
 * `forbidden` result, never run),
 * its arguments arrived whole, and they match the tool's schema. A failure is an error result
 * the model can react to, never a throw.
 */
export function checkCall(
  tools: readonly Tool[],
  call: ToolCall,
  now: number,
  withheld: (name: string) => boolean = () => false,
): CallCheck {
  const tool = findTool(tools, call.name);
  if (!tool && withheld(call.name)) {
    return {
      ok: false,
      result: errorResult(
        call,
        `"${call.name}" is not granted to this run: it was not run. Use only the tools you were given.`,
        { error: "forbidden" },
        now,
      ),
    };
  }
  if (!tool) {
    const known = tools.map((t) => t.name).join(", ") || "none";
    return {
      ok: false,
      result: errorResult(
        call,
        `Unknown tool "${call.name}". Available tools: ${known}.`,
        { error: "unknown_tool" },
        now,
      ),
    };
  }
  if (call.argumentsError) {
    const why = call.argumentsError === "truncated" ? "were cut off before they ended" : "were not valid JSON";
    return {
      ok: false,
      result: errorResult(
        call,
        `The arguments for "${call.name}" ${why}; the tool was ` +
          "not run. Send the call again with complete JSON arguments.",
        { error: call.argumentsError },
        now,
      ),
    };
  }
  const parsed = z.safeParse(tool.input, call.arguments);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    const lines = issues.map((issue) => `- ${issue.path || "(root)"}: ${issue.message}`).join("\n");
    return {
      ok: false,
      result: errorResult(
        call,
        `Invalid arguments for "${call.name}"; the tool was not run:\n${lines}`,
        { error: "invalid_arguments", issues },
        now,
      ),
    };
  }
  return { ok: true, tool, args: parsed.data };
}

function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === "object" && value !== null && Array.isArray((value as ToolOutput).content);
}

/** What a tool's `ToolOutput` must hold: content a model can read. A tool's return value is outside data. */
const ToolOutputSchema = z.object({
  content: z.array(taggedUnion("type", [TextContentSchema, ImageContentSchema])),
  isError: z.boolean().optional(),
  details: z.unknown().optional(),
});

/**
 * A JSON copy of `value`, or undefined when it has none (a BigInt, a cycle). Results are JSON
 * through and through: a park signs them, and a host stores and sends them back.
 */
function jsonCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function toResult(call: ToolCall, value: unknown, now: number): ToolResultMessage {
  if (isToolOutput(value)) {
    const output = ToolOutputSchema.safeParse(value);
    if (!output.success) {
      return errorResult(
        call,
        `"${call.name}" returned output the model cannot read; the run goes on without it.`,
        { error: "invalid_output", issues: describeIssues(output.error) },
        now,
      );
    }
    const message = resultMessage(call, now, output.data.content, output.data.isError ?? false);
    const details = jsonCopy(output.data.details);
    if (details !== undefined) message.details = details;
    return message;
  }
  if (typeof value === "string") return resultMessage(call, now, [{ type: "text", text: value }], false);
  if (value === undefined) return resultMessage(call, now, [{ type: "text", text: "(no output)" }], false);
  const details = jsonCopy(value);
  if (details === undefined) {
    const text = "(the tool returned a value that is not JSON-serialisable)";
    return resultMessage(call, now, [{ type: "text", text }], false);
  }
  const message = resultMessage(call, now, [{ type: "text", text: JSON.stringify(details) }], false);
  message.details = details;
  return message;
}

/**
 * A result message, written out field by field: on Node 20 a property added after a spread
 * (`{ ...base, content }`) costs a new hidden class per call, and this runs for every tool call.
 */
function resultMessage(
  call: ToolCall,
  now: number,
  content: ToolResultMessage["content"],
  isError: boolean,
): ToolResultMessage {
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, timestamp: now, content, isError };
}

class ToolTimeout extends Error {}

/**
 * Runs one checked call. The tool gets a signal that aborts with the run or at its deadline; the
 * deadline also stops waiting for a tool that ignores its signal. Never throws.
 */
export async function executeTool(
  tool: Tool,
  call: ToolCall,
  args: unknown,
  ctx: ToolRunContext,
): Promise<ToolResultMessage> {
  if (ctx.signal.aborted) {
    const text = `"${call.name}" was not run: the run was aborted.`;
    return markStopped(errorResult(call, text, { error: "aborted" }, ctx.now()));
  }
  const timeoutMs = tool.timeoutMs ?? ctx.defaultTimeoutMs;
  const controller = new AbortController();
  let settle: ((error: Error) => void) | undefined;
  const stopped = new Promise<never>((_, reject) => (settle = reject));
  const onRunAbort = () => {
    controller.abort(ctx.signal.reason);
    settle?.(new Error("aborted"));
  };
  ctx.signal.addEventListener("abort", onRunAbort, { once: true });
  // A question nobody can answer now stops the call: its result is not waited for, and it re-runs on resume.
  let parked = false;
  const elicit = callElicitor(ctx.link?.parent, call, {
    signal: controller.signal,
    canPark: ctx.link !== undefined && !ctx.link.readOnly,
    park: () => {
      parked = true;
      const reason = new ElicitationError("parked", `"${call.name}" waits for a person's answer`);
      controller.abort(reason);
      settle?.(reason);
    },
  });
  const timer = setTimeout(() => {
    controller.abort(new ToolTimeout(`timed out after ${timeoutMs} ms`));
    settle?.(new ToolTimeout(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  timer.unref?.();
  try {
    const value = await Promise.race([
      Promise.resolve().then(() => {
        const context = linkedToolContext(
          {
            signal: controller.signal,
            runId: ctx.runId,
            toolCallId: call.id,
            toolName: call.name,
            idempotencyKey: `${ctx.runId}:${call.id}`,
            progress: ctx.onProgress,
            elicit,
            ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
          },
          ctx.link,
        );
        return tool.execute(args, context);
      }),
      stopped,
    ]);
    return toResult(call, value, ctx.now());
  } catch (error) {
    if (parked) {
      return errorResult(
        call,
        `"${call.name}" was stopped to wait for a person's answer; it runs again from its start once they answer.`,
        { error: "elicitation_parked" },
        ctx.now(),
      );
    }
    if (error instanceof ToolTimeout) {
      return errorResult(
        call,
        `"${call.name}" timed out after ${timeoutMs} ms and was stopped.`,
        { error: "timeout", timeoutMs },
        ctx.now(),
      );
    }
    if (ctx.signal.aborted) {
      const text = `"${call.name}" was stopped: the run was aborted.`;
      return markStopped(errorResult(call, text, { error: "aborted" }, ctx.now()));
    }
    const message = describeError(error);
    return errorResult(call, `"${call.name}" failed: ${message}`, { error: "threw", message }, ctx.now());
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onRunAbort);
    // The race's loser must not surface as an unhandled rejection later.
    stopped.catch(() => undefined);
  }
}
