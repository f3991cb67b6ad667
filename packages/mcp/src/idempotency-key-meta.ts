/**
 * The `_meta` key under which every `tools/call` carries the runner's idempotency key for the call
 * (`ctx.idempotencyKey`: the run and the call, the same when a crashed run's call is run again in
 * another process). MCP has no field of its own for it (SEP-3182 proposed one and was closed), so
 * it travels as request metadata, which a server that does not know the key ignores; a server whose
 * tool has an effect can keep the key and answer a repeat with its first result.
 */
export const IDEMPOTENCY_KEY_META = "x-agent/idempotency-key";
