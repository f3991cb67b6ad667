import { CodedError, MAX_TIMER_MS, type ToolSpec } from "@x/llm-types";
import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";
import { PERMISSIONS, type Permission } from "./types";
import type { ElicitationRequest, ElicitationResult } from "./elicitation";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborts when the run is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  runId: string;
  sessionId?: string;
  toolCallId: string;
  toolName: string;
  /**
   * `runId:toolCallId` — the same for every attempt at this call, in any process (a resumed park,
   * a task retried after a crash). A tool with an external effect passes it to that system (an
   * `Idempotency-Key` header, a unique column) so a repeated attempt cannot repeat the effect.
   */
  idempotencyKey: string;
  /** Reports how far a long call has come; the run streams it as a `tool_progress` event. */
  progress: (update: ToolProgress) => void;
  /**
   * Asks the person a question mid-call and returns their answer (checked against `schema`) or
   * their refusal — never the model's. With a live approver that answers, the answer comes back
   * now; with none, the run parks and this call is stopped (the promise rejects with
   * `ElicitationError` `parked`), then re-run from its start by `resume`, where this returns the
   * recorded answer at once. A read-only call (it may run beside others) cannot park: unanswered, it
   * is declined.
   */
  elicit: (request: ElicitationRequest) => Promise<ElicitationResult>;
}

/** A long-running tool's report of how far it has come (an MCP server's progress notification). */
export interface ToolProgress {
  /** Work done so far; grows with every report. */
  progress: number;
  /** Total work, when known. */
  total?: number;
  message?: string;
}

/** A tool may return text, any JSON value, or this shape to control what the model sees. */
export interface ToolOutput {
  content: Array<{ type: "text"; text: string } | { type: "image"; data: string; mimeType: string }>;
  /** Reported back as an error result (the model sees it failed). */
  isError?: boolean;
  /** Kept on the result message for the host; never sent to the model. */
  details?: unknown;
}

export interface ToolDefinition<S extends z4.$ZodType, R> {
  name: string;
  description: string;
  input: S;
  execute(args: z4.output<S>, ctx: ToolContext): R | Promise<R>;
  /** Read-only tools in the same turn may run in parallel. Default false. */
  readOnly?: boolean;
  /**
   * Running the same call again changes nothing more: the tool passes `ctx.idempotencyKey` to the
   * system it changes, or its effect is idempotent in its arguments (MCP's `idempotentHint`). Its
   * results then ride with the next accepted answer's checkpoint, as a read-only tool's do, unless a
   * person or the classifier ruled on the call: a crash before that checkpoint (or a stop while the
   * calls run) runs the call again under the same id and key, and a durable turn of it costs the
   * host one write, not two; a stop while the model answers checkpoints the results first. Default
   * false: a tool with an effect has its results checkpointed as soon as they are in, so only a crash
   * while it runs, or before that write, runs it again.
   */
  idempotent?: boolean;
  /** Per-call deadline. Default: the spec's `toolTimeoutMs`. */
  timeoutMs?: number;
  /** Default permission when the spec lists none for this tool. */
  permission?: Permission;
}

/** A tool, ready for a TaskSpec: its wire spec is computed once, from the zod schema. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly input: z4.$ZodType;
  readonly spec: ToolSpec;
  readonly readOnly: boolean;
  /** As `ToolDefinition.idempotent`; absent is false. */
  readonly idempotent?: boolean;
  readonly timeoutMs?: number;
  readonly permission?: Permission;
  execute(args: unknown, ctx: ToolContext): unknown;
}

export class ToolDefinitionError extends CodedError<"tool_definition_invalid"> {
  override readonly name = "ToolDefinitionError";
  constructor(message: string) {
    super("tool_definition_invalid", message);
  }
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Defines a tool. The JSON Schema the model sees comes from `z.toJSONSchema(input)`. */
export function defineTool<S extends z4.$ZodType, R>(definition: ToolDefinition<S, R>): Tool {
  if (!NAME.test(definition.name))
    throw new ToolDefinitionError(`tool name "${definition.name}" must be 1-64 chars of [a-zA-Z0-9_-]`);
  const { timeoutMs } = definition;
  // Past the largest timer delay Node fires at once: the tool would always "time out".
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new ToolDefinitionError(
      `tool "${definition.name}": timeoutMs must be a whole number of ms from 1 to ${MAX_TIMER_MS}`,
    );
  }
  if (definition.permission !== undefined && !(PERMISSIONS as readonly unknown[]).includes(definition.permission)) {
    throw new ToolDefinitionError(`tool "${definition.name}": permission must be one of ${PERMISSIONS.join(", ")}`);
  }
  let parameters: Record<string, unknown>;
  try {
    parameters = z.toJSONSchema(definition.input, { target: "draft-2020-12", io: "input" });
  } catch (error) {
    throw new ToolDefinitionError(
      `tool "${definition.name}": its input schema has no JSON Schema form (${(error as Error).message})`,
    );
  }
  // The $schema line is noise on the wire; providers ignore or reject it.
  delete parameters.$schema;
  const tool: Tool = {
    name: definition.name,
    description: definition.description,
    input: definition.input,
    spec: { name: definition.name, description: definition.description, parameters },
    readOnly: definition.readOnly ?? false,
    execute: (args, ctx) => definition.execute(args as z4.output<S>, ctx),
    ...(definition.idempotent === true ? { idempotent: true } : {}),
    ...(definition.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
    ...(definition.permission !== undefined ? { permission: definition.permission } : {}),
  };
  return Object.freeze(tool);
}
