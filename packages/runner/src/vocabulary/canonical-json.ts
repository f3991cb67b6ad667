import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // Most values (a model's arguments, the runner's own records) already have their keys in order:
  // checking that allocates nothing, where sorting copies every object.
  return JSON.stringify(isCanonical(value) ? value : sortKeys(value)) ?? "null";
}

/**
 * The canonical text of `value` as a host stores it and hands it back: the same text as
 * `canonicalJson(JSON.parse(JSON.stringify(value)))`, so a signature over it verifies on the copy
 * read back. Plain data (the runner's own records, messages, parsed arguments) is serialised once:
 * `JSON.stringify` sorting each object's keys as it goes. Anything else (a class instance, a boxed
 * primitive, an object with a `toJSON`) goes through its JSON text first.
 */
export function canonicalJsonAsStored(value: unknown): string {
  if (isCanonical(value)) return JSON.stringify(value) ?? "null";
  if (isPlain(value)) return JSON.stringify(value, sortedObject);
  return canonicalJson(JSON.parse(JSON.stringify(value) ?? "null"));
}

/**
 * True when `value` holds only arrays, plain objects and primitives, none with a `toJSON`. A boxed
 * primitive (held, or returned by a `toJSON`) is what the sorting pass must not copy: JSON writes
 * its primitive, but a copy as an object.
 */
function isPlain(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (hasToJson(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isPlain(item)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!isPlain((value as Record<string, unknown>)[key])) return false;
  return true;
}

/**
 * A `JSON.stringify` replacer for plain data: each object with its keys out of order is written as
 * a copy with them sorted (its values are then visited in turn).
 */
function sortedObject(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let i = 1;
  while (i < keys.length && keys[i - 1]! < keys[i]!) i++;
  if (i >= keys.length) return value;
  // No prototype, so an own `__proto__` key is kept as data, as `sortKeys` keeps it.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of keys.sort()) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

/**
 * True when `JSON.stringify(value)` already gives the canonical text: plain objects and arrays only,
 * none with a `toJSON` (own, inherited or hidden, which JSON calls and `sortKeys`' copy may not),
 * every object's keys enumerated in sorted order.
 */
function isCanonical(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (hasToJson(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!isCanonical((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

const hasToJson = (value: object) => typeof (value as { toJSON?: unknown }).toJSON === "function";

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
