/**
 * How deep and how large a JSON value from outside (a park handed back, a stored row, a model's
 * tool arguments) may be before it is refused. Past these, recursive code downstream — canonical
 * JSON for a signature, `JSON.stringify`, `structuredClone` — would throw a bare `RangeError`.
 */
export interface JsonBounds {
  /** Nesting levels: the top value is level 1, each object or array inside another adds one. */
  maxDepth: number;
  /** Rough size: one per value, plus the characters of every string and object key. */
  maxSize: number;
}

/**
 * How deep and large a model's tool-call arguments may be: deeper than any tool schema needs, and
 * far below what the signature, the loop guard's canonical JSON or a park's stored copy can take.
 */
export const TOOL_ARGUMENT_BOUNDS: JsonBounds = { maxDepth: 32, maxSize: 4 * 1024 * 1024 };

/**
 * What is wrong with `value` against `bounds`, or undefined when it fits. Walks with its own
 * stack, so a value nested 100 000 levels deep is measured, not overflowed on, and it stops at
 * the first bound crossed — a huge value costs no more than the bound.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let size = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    size += typeof node === "string" ? node.length + 1 : 1;
    if (size > bounds.maxSize) return `is larger than ${bounds.maxSize} characters`;
    if (node === null || typeof node !== "object") continue;
    if (depth > bounds.maxDepth) return `nests deeper than ${bounds.maxDepth} levels`;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(node)) {
      size += key.length;
      stack.push([item, depth + 1]);
    }
  }
  return undefined;
}
