import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // Most values (a model's arguments, the runner's own records) already have their keys in order:
  // checking that allocates nothing, where sorting copies every object.
  return JSON.stringify(isCanonical(value) ? value : sortKeys(value)) ?? "null";
}

/**
 * True when `JSON.stringify(value)` already gives the canonical text: plain objects and arrays only
 * (anything with a prototype of its own may have a `toJSON`, which `sortKeys` does not call), every
 * object's keys enumerated in sorted order.
 */
function isCanonical(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    // A `toJSON` is called with the copy as `this` on the sorting path: left to that path.
    if (key === "toJSON" || (previous !== undefined && !(previous < key))) return false;
    if (!isCanonical((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    // No prototype, so an own `__proto__` key (JSON.parse makes one) is kept as data, not dropped.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
