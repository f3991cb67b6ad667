import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  describeIssues,
  jsonBoundsProblem,
  type JsonBounds,
  type Message,
  issuesLine,
  assistantToolCalls,
} from "@x/llm-types";
import { canonicalJson, sha256Hex } from "../vocabulary/canonical-json";
import { RunnerConfigError } from "../vocabulary/config-error";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import { refuseNewerVersion } from "../decisions/stored-version";
import {
  PARKED_RUN_KIND,
  PARKED_RUN_VERSION,
  ParkedRunSchema,
  type ParkedRun,
  type RunSpec,
  type PendingCall,
  type RunState,
} from "../vocabulary/park-schema";

/** The assistant turn holding the pending call: the last one, followed only by its tool results. */
export function pendingTurn(messages: readonly Message[]): Extract<Message, { role: "assistant" }> | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return message;
    if (message.role !== "toolResult") return undefined;
  }
  return undefined;
}

export function historyDigest(history: readonly Message[], messages: readonly Message[]): string {
  return sha256Hex(canonicalJson([...history, ...messages]));
}

/**
 * The signed statement: the pending call (tool, id, arguments), the history digest, and a digest of
 * everything else the run resumes from — so no byte of a park can change without the MAC failing.
 */
function signedPayload(park: Omit<ParkedRun, "signature">): string {
  const { spec, state, pending, messages, history } = park;
  return canonicalJson({
    kind: park.kind,
    version: park.version,
    parkId: park.parkId,
    createdAt: park.createdAt,
    expiresAt: park.expiresAt,
    toolName: pending.toolName,
    toolCallId: pending.toolCallId,
    arguments: pending.arguments,
    historyDigest: historyDigest(history, messages),
    rest: sha256Hex(canonicalJson({ spec, state, pending })),
  });
}

export function mac(key: Uint8Array | string, payload: string): string {
  return createHmac("sha256", key).update(payload).digest("hex");
}

export function randomParkKey(): Uint8Array {
  return randomBytes(32);
}

/** The shortest key a park may be signed with: 128 bits. */
export const MIN_PARK_KEY_BYTES = 16;

/**
 * Screens a host's park key. An empty or short key (an unset environment variable read as "")
 * would let anyone who can guess it forge an approval, so it is refused loudly.
 */
export function checkParkKey(key: unknown): Uint8Array | string {
  const bytes = typeof key === "string" ? Buffer.byteLength(key) : key instanceof Uint8Array ? key.length : -1;
  if (bytes < MIN_PARK_KEY_BYTES) {
    throw new RunnerConfigError(
      "config.park_key_invalid",
      `parkKey must be a string or Uint8Array of at least ${MIN_PARK_KEY_BYTES} bytes ` +
        `(got ${bytes < 0 ? typeof key : `${bytes} bytes`})`,
    );
  }
  return key as Uint8Array | string;
}

export interface ParkInput {
  parkId: string;
  now: number;
  ttlMs: number;
  spec: RunSpec;
  /** Read only: the signed park holds a JSON copy. */
  history: readonly Message[];
  messages: Message[];
  pending: PendingCall;
  state: RunState;
}

export function signParkedRun(input: ParkInput, key: Uint8Array | string): ParkedRun {
  const unsigned: Omit<ParkedRun, "signature"> = {
    kind: PARKED_RUN_KIND,
    version: PARKED_RUN_VERSION,
    parkId: input.parkId,
    createdAt: input.now,
    expiresAt: input.now + input.ttlMs,
    spec: input.spec,
    history: [...input.history],
    messages: input.messages,
    pending: input.pending,
    state: input.state,
    historyDigest: historyDigest(input.history, input.messages),
  };
  // A JSON round trip now makes the signed value exactly what the host will store and send back.
  const plain = JSON.parse(JSON.stringify(unsigned)) as Omit<ParkedRun, "signature">;
  // Signed onto the parsed copy, not spread into another (a new hidden class per call on Node 20).
  return Object.assign(plain, { signature: mac(key, signedPayload(plain)) });
}

/**
 * How deep and large a park or checkpoint handed back may be. The run's own structure is about six
 * levels; tool arguments inside it are bounded on their own, so 64 leaves room and stops a value
 * that would make the signature check (recursive canonical JSON) throw a `RangeError`.
 */
export const PARK_JSON_BOUNDS: JsonBounds = { maxDepth: 64, maxSize: 64 * 1024 * 1024 };

/**
 * A park or checkpoint as a host hands it back (JSON text or a parsed value), screened before any
 * schema or signature work: not JSON, too deep or too large is `invalid_schema`, never a bare
 * `SyntaxError` or `RangeError`.
 */
export function outsideJson(raw: unknown, subject: string): unknown {
  let value = raw;
  if (typeof raw === "string") {
    if (raw.length > PARK_JSON_BOUNDS.maxSize)
      throw new ParkedRunError("invalid_schema", `${subject} is larger than ${PARK_JSON_BOUNDS.maxSize} characters`);
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ParkedRunError("invalid_schema", `${subject} is not valid JSON`);
    }
  }
  const problem = jsonBoundsProblem(value, PARK_JSON_BOUNDS);
  if (problem) throw new ParkedRunError("invalid_schema", `${subject} ${problem}`, { bound: problem });
  return value;
}

/**
 * Reads a park handed back by a host: schema (zod), signature, the pending call's presence in
 * the signed history, then expiry. Throws {@link ParkedRunError}; claiming is the caller's step.
 */
export function verifyParkedRun(raw: unknown, key: Uint8Array | string, now: number): ParkedRun {
  const value = outsideJson(raw, "parked run");
  refuseNewerVersion(value, "this parked run", PARKED_RUN_VERSION);
  const parsed = ParkedRunSchema.safeParse(value);
  if (!parsed.success) {
    throw new ParkedRunError(
      "invalid_schema",
      `parked run does not match schema v${PARKED_RUN_VERSION}: ${issuesLine(parsed.error)}`,
      { issues: describeIssues(parsed.error) },
    );
  }
  const park = parsed.data;
  const { signature, ...unsigned } = park;
  const expected = Buffer.from(mac(key, signedPayload(unsigned)), "hex");
  const given = Buffer.from(signature, "hex");
  if (
    park.historyDigest !== historyDigest(park.history, park.messages) ||
    expected.length !== given.length ||
    !timingSafeEqual(expected, given)
  ) {
    throw new ParkedRunError(
      "bad_signature",
      "parked run signature does not match its content (tampered, or signed with another key)",
      { parkId: park.parkId },
    );
  }
  const turn = pendingTurn(park.messages);
  const call = turn ? assistantToolCalls(turn)[park.pending.index] : undefined;
  if (
    !call ||
    call.id !== park.pending.toolCallId ||
    call.name !== park.pending.toolName ||
    canonicalJson(call.arguments) !== canonicalJson(park.pending.arguments)
  ) {
    throw new ParkedRunError(
      "invalid_schema",
      "the pending call is not the signed history's last tool call at its index",
      { parkId: park.parkId },
    );
  }
  if (now >= park.expiresAt) {
    throw new ParkedRunError("expired", `parked run expired at ${new Date(park.expiresAt).toISOString()}`, {
      parkId: park.parkId,
      expiresAt: park.expiresAt,
    });
  }
  return park;
}
