import { createHash } from "node:crypto";

/**
 * The `_meta` key under which every `tools/call` carries an idempotency key for the call. MCP has
 * no field of its own for one (SEP-3182 proposed it and was closed), so it travels as request
 * metadata, which a server that does not know it ignores; a server whose tool has an effect can keep
 * the key and answer a repeat with its first result.
 */
export const IDEMPOTENCY_KEY_META = "x-agent/idempotency-key";

/**
 * The key a server is sent for a call: derived from the runner's (`ctx.idempotencyKey`, the run and
 * the call) and the server's name, so it is the same when a crashed run's call runs again in another
 * process, while no server learns the host's run ids or can match its calls with another server's.
 * A host computes it to find what a server recorded for one of its calls.
 */
export function mcpIdempotencyKey(server: string, idempotencyKey: string): string {
  return createHash("sha256").update(`${server}\n${idempotencyKey}`).digest("base64url");
}
