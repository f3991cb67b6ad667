import { MessageSchema, ModelSchema } from "@x/llm-types";
import { z } from "zod";
import type { Tool } from "./define-tool";

const PermissionSchema = z.enum(["allow", "ask", "auto"]);
const ModelRefSchema = z.union([z.string().min(1), ModelSchema]);

const ToolSchema = z.custom<Tool>(
  (value) => typeof value === "object" && value !== null && typeof (value as Tool).name === "string" && typeof (value as Tool).execute === "function" && typeof (value as Tool).spec === "object",
  { message: "expected a tool made by defineTool()" },
);

const positiveInt = z.number().int().positive();

/** A TaskSpec from outside: checked before anything runs. Functions and zod schemas are checked by shape. */
export const TaskSpecSchema = z
  .object({
    objective: z.string(),
    model: z.union([ModelRefSchema, z.array(ModelRefSchema).min(1)]).optional(),
    role: z.enum(["default", "classifier", "advisor", "summarize", "helper"]).optional(),
    tools: z.array(ToolSchema).optional(),
    history: z.array(MessageSchema).optional(),
    systemPrompt: z.string().optional(),
    permissions: z.record(z.string(), PermissionSchema).optional(),
    defaultPermission: PermissionSchema.optional(),
    maxTurns: positiveInt.optional(),
    maxTokens: positiveInt.optional(),
    reasoning: z.enum(["off", "minimal", "low", "medium", "high"]).optional(),
    budget: z.strictObject({ tokens: z.number().nonnegative().optional(), microUsd: z.number().int().nonnegative().optional() }).optional(),
    output: z.custom<z.ZodType>((value) => value instanceof z.ZodType, { message: "expected a zod schema" }).optional(),
    maxRepeatedCalls: positiveInt.optional(),
    toolTimeoutMs: positiveInt.optional(),
    modelTimeoutMs: positiveInt.optional(),
    onToolResult: z.custom<(...args: unknown[]) => unknown>((value) => typeof value === "function", { message: "expected a function" }).optional(),
    sessionId: z.string().min(1).optional(),
    runId: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/).optional(),
  })
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    for (const tool of spec.tools ?? []) {
      if (seen.has(tool.name)) ctx.addIssue({ code: "custom", path: ["tools"], message: `two tools are named "${tool.name}"` });
      seen.add(tool.name);
    }
  });
