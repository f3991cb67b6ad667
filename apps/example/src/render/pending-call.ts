import type { PendingCallView } from "../pending-call";
import { oneLine } from "./one-line";

/** How much of a call the prompt shows before a person asks for all of it. */
export const SHOWN_ARGUMENT_CHARS = 160;
export const SHOWN_DIFF_LINES = 20;

/** Text from a model or a file may hold escape sequences: each control character is shown as its code instead. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
  return text.replace(control, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The runs above a sub-run's call, top first: `delegate (call d1, in run 1a2b3c4d) → write_file`. */
export function callPath(view: PendingCallView): string | undefined {
  if (view.path.length === 0) return undefined;
  const steps = view.path.map((step) => `${step.toolName} (call ${step.toolCallId}, in run ${step.runId})`);
  return `${[...steps, view.tool].map((step) => oneLine(step, 120)).join(" → ")}`;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The call in a few lines: tool, why, the path above it, the arguments on one line and the diff's head —
 * each cut marked with how much is left and `more` (how to see it all: "press v to view").
 */
export function briefCallLines(view: PendingCallView, more: string): string[] {
  const lines: string[] = [];
  const path = callPath(view);
  if (path) lines.push(`in a sub-run: ${path}`);
  lines.push(...questionLines(view));
  const json = JSON.stringify(view.arguments);
  const flat = oneLine(json, Number.MAX_SAFE_INTEGER);
  if (flat.length <= SHOWN_ARGUMENT_CHARS) lines.push(flat);
  else {
    const shown = flat.slice(0, SHOWN_ARGUMENT_CHARS);
    lines.push(`${shown}… ${count(flat.length - shown.length)} more characters, ${more}`);
  }
  if (view.diff !== undefined) {
    const diff = view.diff.split("\n");
    lines.push("what the write changes:");
    lines.push(...diff.slice(0, SHOWN_DIFF_LINES).map((line) => `  ${visible(line)}`));
    if (diff.length > SHOWN_DIFF_LINES) lines.push(`… ${count(diff.length - SHOWN_DIFF_LINES)} more lines, ${more}`);
  }
  return lines;
}

/**
 * The whole call, nothing cut: each argument by name (text as its lines, control characters shown as
 * codes so no argument can rewrite what the terminal shows), the path above it and the whole diff.
 */
export function fullCallLines(view: PendingCallView): string[] {
  const lines = [`${oneLine(view.tool, 80)} (call ${oneLine(view.id, 80)})`];
  const path = callPath(view);
  if (path) lines.push(`in a sub-run: ${path}`);
  lines.push(...questionLines(view));
  const chars = JSON.stringify(view.arguments).length;
  lines.push(`arguments (${count(chars)} characters as JSON):`);
  for (const [name, value] of Object.entries(view.arguments)) lines.push(...argumentLines(name, value));
  if (view.diff !== undefined) {
    lines.push("what the write changes:");
    lines.push(...view.diff.split("\n").map((line) => `  ${visible(line)}`));
  }
  return lines;
}

function argumentLines(name: string, value: unknown): string[] {
  const label = `  ${visible(name)}:`;
  if (typeof value === "string" && !value.includes("\n") && value.length <= SHOWN_ARGUMENT_CHARS)
    return [`${label} ${visible(value)}`];
  if (typeof value === "string") {
    // A final newline ends the last line; it does not start another.
    const body = (value.endsWith("\n") ? value.slice(0, -1) : value).split("\n");
    const lines = [`${label} (${count(value.length)} characters, ${count(body.length)} lines)`];
    return [...lines, ...body.map((line) => `    │ ${visible(line)}`)];
  }
  const json = JSON.stringify(value, null, 2) ?? String(value);
  const body = json.split("\n");
  return body.length === 1 ? [`${label} ${visible(json)}`] : [label, ...body.map((line) => `    ${visible(line)}`)];
}

/**
 * A tool's question, marked as the tool's words (a server wrote them, not the user), and each field of
 * its form: name, type, whether it is required, and what it says about itself.
 */
export function questionLines(view: PendingCallView): string[] {
  if (!view.question) return [];
  const form = view.question.schema as {
    properties?: Record<string, { type?: unknown; description?: unknown; enum?: unknown }>;
    required?: unknown;
  };
  const required = new Set(Array.isArray(form.required) ? form.required.map(String) : []);
  const lines = [`the tool asks (its words): ${oneLine(visible(view.question.message), 200)}`];
  for (const [name, field] of Object.entries(form.properties ?? {})) {
    const kind = Array.isArray(field.enum)
      ? `one of ${field.enum.map(String).join(", ")}`
      : typeof field.type === "string"
        ? field.type
        : "value";
    const about = typeof field.description === "string" ? ` — ${oneLine(visible(field.description), 120)}` : "";
    lines.push(`  ${visible(name)}: ${kind}${required.has(name) ? ", required" : ""}${about}`);
  }
  return lines;
}
