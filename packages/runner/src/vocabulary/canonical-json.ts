import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // Most values (a model's arguments, the runner's own records) already have their keys in order:
  // checking that allocates nothing, where sorting copies every object.
  return JSON.stringify(shapeOf(value) === CANONICAL ? value : sortKeys(value)) ?? "null";
}

/**
 * The canonical text of `value` as a host stores it and hands it back: the same text as
 * `canonicalJson(JSON.parse(JSON.stringify(value)))`, so a signature over it verifies on the copy
 * read back. Plain data (the runner's own records, messages, parsed arguments) is serialised once:
 * `JSON.stringify` sorting each object's keys as it goes. Anything else (a class instance, a boxed
 * primitive, an object with a `toJSON`) goes through its JSON text first.
 */
export function canonicalJsonAsStored(value: unknown): string {
  const shape = shapeOf(value);
  if (shape === CANONICAL) return JSON.stringify(value) ?? "null";
  if (shape === PLAIN) return JSON.stringify(value, sortedObject);
  return canonicalJson(JSON.parse(JSON.stringify(value) ?? "null"));
}

/** `JSON.stringify` already gives the canonical text. */
const CANONICAL = 0;
/** Plain data with some object's keys out of order: sorting them gives the canonical text. */
const PLAIN = 1;
/**
 * Something JSON writes by rules of its own: a class instance, a boxed primitive (held, or returned
 * by a `toJSON`: the sorting pass would copy it as an object where JSON writes its primitive), or
 * anything with a `toJSON` (own, inherited or hidden, which JSON calls and `sortKeys`' copy may not).
 */
const OTHER = 2;
type Shape = typeof CANONICAL | typeof PLAIN | typeof OTHER;

/** How far `JSON.stringify(value)` is from the canonical text; one walk, nothing allocated. */
function shapeOf(value: unknown): Shape {
  if (typeof value !== "object" || value === null) return CANONICAL;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return OTHER;
  let shape: Shape = CANONICAL;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = shapeOf(item);
      if (inner === OTHER) return OTHER;
      if (inner > shape) shape = inner;
    }
    return shape;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return OTHER;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) shape = PLAIN;
    const inner = shapeOf((value as Record<string, unknown>)[key]);
    if (inner === OTHER) return OTHER;
    if (inner > shape) shape = inner;
    previous = key;
  }
  return shape;
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
