import { z } from "zod";
import type * as z4 from "zod/v4/core";
import { issuesLine } from "./issues";

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
  return `When you give your final answer, reply with ONLY one JSON value matching this JSON Schema, with no prose around it:\n${json}`;
}

/** The JSON inside a reply: a fenced block if there is one, else the outermost braces/brackets. */
export function extractJson(text: string): string {
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) return fenced[1].trim();
  const trimmed = text.trim();
  const starts = [trimmed.indexOf("{"), trimmed.indexOf("[")].filter((i) => i >= 0);
  if (starts.length === 0) return trimmed;
  const start = Math.min(...starts);
  const end = Math.max(trimmed.lastIndexOf("}"), trimmed.lastIndexOf("]"));
  return end > start ? trimmed.slice(start, end + 1) : trimmed;
}

export type OutputParse = { ok: true; value: unknown } | { ok: false; problem: string };

export function parseOutput(schema: z4.$ZodType, text: string): OutputParse {
  let raw: unknown;
  try {
    raw = JSON.parse(extractJson(text));
  } catch {
    return { ok: false, problem: "the reply is not valid JSON" };
  }
  const parsed = z.safeParse(schema, raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: issuesLine(parsed.error) };
}
