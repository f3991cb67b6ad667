import { canonicalJsonAsStored } from "../vocabulary/canonical-json";
import { mac } from "./park";

/** A record signed as its host stores it (a checkpoint, a chain link). */
export interface SignedRecord<T> {
  /** The copy the host is handed: parsed from the signed text, so nothing of the live run is shared. */
  value: T & { signature: string };
  /** `value` as JSON text, the signature included: what a host that stores text stores as is. */
  json: string;
}

/**
 * Signs `unsigned` over its canonical text as stored (`canonicalJsonAsStored`), so the signature
 * verifies on the copy a host reads back — one serialisation serves the signature, the host's
 * copy and the host's text.
 */
export function signRecord<T extends { kind: string }>(unsigned: T, key: Uint8Array | string): SignedRecord<T> {
  const text = canonicalJsonAsStored(unsigned);
  const signature = mac(key, text);
  // Signed onto the parsed copy, not spread into another: on Node 20 a property added after a
  // spread costs a new hidden class, once per record.
  const value = Object.assign(JSON.parse(text) as T, { signature });
  // The record has a `kind`, so its text is an object with a key: the signature follows the last.
  return { value, json: `${text.slice(0, -1)},"signature":"${signature}"}` };
}
