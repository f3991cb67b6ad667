import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";
import { replyJson, issuesLine } from "@x/llm-types";

/** The system-prompt lines that ask for a structured final answer. */
export function outputInstruction(schema: z4.$ZodType): string {
  let json: string;
  try {
    const wire = z.toJSONSchema(schema, { io: "output" }) as Record<string, unknown>;
    delete wire.$schema;
    json = JSON.stringify(wire);
  } catch {
    json = "(see the task)";
  }
  return (
    "When you give your final answer, reply with ONLY one JSON value " +
    `matching this JSON Schema, with no prose around it:\n${json}`
  );
}

export type OutputParse = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * The final answer read against the schema: the first JSON value in the reply it accepts (the whole
 * reply, a fence, or a value among prose). When none is accepted, the best one's issues say why.
 */
export function parseOutput(schema: z4.$ZodType, text: string): OutputParse {
  let refused: z4.$ZodError | undefined;
  for (const { value } of replyJson(text)) {
    const parsed = z.safeParse(schema, value);
    if (parsed.success) return { ok: true, value: parsed.data };
    refused ??= parsed.error;
  }
  return { ok: false, problem: refused ? issuesLine(refused) : "the reply is not valid JSON" };
}
