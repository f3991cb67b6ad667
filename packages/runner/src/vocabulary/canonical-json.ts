import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // Most values (a model's arguments, the runner's own records) already have their keys in order:
  // checking that allocates nothing, where sorting copies every object.
  if (inOrder(value)) return JSON.stringify(value) ?? "null";
  const text = sortedText(value);
  return (text === NOT_PLAIN ? JSON.stringify(sortKeys(value)) : text) ?? "null";
}

/**
 * The canonical text of `value` as a host stores it and hands it back: the same text as
 * `canonicalJson(JSON.parse(JSON.stringify(value)))`, so a signature over it verifies on the copy
 * read back. Plain data (the runner's own records, messages, parsed arguments) is written in one
 * walk, each object's keys sorted as it goes; anything else (a class instance, a boxed primitive, an
 * object with a `toJSON`) goes through its JSON text first.
 */
export function canonicalJsonAsStored(value: unknown): string {
  // A record to be stored holds messages, whose keys are never in order: no use looking first.
  const text = sortedText(value);
  if (text !== NOT_PLAIN) return text ?? "null";
  return canonicalJson(JSON.parse(JSON.stringify(value) ?? "null"));
}

/**
 * Whether `JSON.stringify(value)` is already the canonical text: plain data (see `NOT_PLAIN`) with
 * every object's keys in order. One walk, nothing allocated.
 */
function inOrder(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (hasToJson(value)) return false;
  if (typeof value !== "object") return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!inOrder(item)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!inOrder((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

/**
 * What `sortedText` gives for a value that is not plain data: something JSON writes by rules of its
 * own — a class instance, a boxed primitive (held, or returned by a `toJSON`: a sorted copy would be
 * an object where JSON writes its primitive), or anything with a `toJSON` (own, inherited or hidden,
 * on an object, a function or a primitive, which JSON calls and `sortKeys`' copy may not).
 */
const NOT_PLAIN = Symbol("not plain data");

/**
 * The canonical text of plain data, written in one walk: what JSON writes for a copy of it with
 * every object's keys sorted, without the copies. `undefined` where JSON has no text (a function, a
 * symbol, `undefined` itself); `NOT_PLAIN` as soon as it meets something that is not plain data.
 */
function sortedText(value: unknown): string | undefined | typeof NOT_PLAIN {
  if (value === null || value === undefined) return JSON.stringify(value);
  if (hasToJson(value)) return NOT_PLAIN;
  if (typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      const item = sortedText(value[i]);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      text += (i === 0 ? "" : ",") + (item ?? "null");
    }
    return `${text}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  let text = "{";
  for (const key of sortedKeys(value)) {
    const item = sortedText((value as Record<string, unknown>)[key]);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (item !== undefined) text += (text.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + item;
  }
  return `${text}}`;
}

/**
 * JSON writes what `value.toJSON()` returns: an object's own or inherited method, and as well a
 * function's, or a BigInt's or any primitive's whose prototype was given one.
 */
function hasToJson(value: NonNullable<unknown>): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/**
 * An object's keys in the order JSON writes a copy made with them sorted: array indices first, by
 * number (every object lists them so), then the rest sorted.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value).sort();
  if (!keys.some(isArrayIndex)) return keys;
  const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isArrayIndex(key))];
}

/** A key objects list first: an integer from 0 to 2³² − 2, written as `String` writes it. */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return false;
  const n = Number(key);
  return Number.isInteger(n) && n < 4_294_967_295 && String(n) === key;
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
