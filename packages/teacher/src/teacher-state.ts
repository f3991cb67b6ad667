import { createHmac, timingSafeEqual } from "node:crypto";
import { describeIssues, issuesLine } from "@x/llm-types";
import { z } from "zod/v4";
import { TeacherError } from "./errors";

export const TEACHER_STATE_KIND = "x.teacher_state";
export const TEACHER_STATE_VERSION = 1;

const hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A queued teacher task's escalation state, as a worker stores it beside the run's checkpoint: every
 * step of the outer loop that has happened (strategies recalled, each student run's result, each
 * verdict, policy answer, advice, takeover, the strategy stored) by its key, so a worker that takes
 * the task over replays them instead of doing them again. Signed with the host's key over the task id
 * too, so a state altered in storage or copied from another task is refused. Each step's value is
 * checked by that step's own schema when it is read back (`teacher-steps.ts`).
 */
export const TeacherStateSchema = z.strictObject({
  kind: z.literal(TEACHER_STATE_KIND),
  version: z.literal(TEACHER_STATE_VERSION),
  taskId: z.string().min(1),
  /** The student's session (and so the provider cache key) across every take. */
  sessionId: z.string().min(1),
  /** Recorded steps by key (`student:2`, `advice:1`, …), in the order they happened. */
  steps: z.record(z.string(), z.json()),
  /** What the student run in flight has spent on the stuck monitor so far (`run` names it). */
  live: z.strictObject({ run: z.number().int().positive(), helperStats: z.json() }).optional(),
  /** HMAC-SHA256 over the canonical JSON of everything above, hex. */
  signature: hex,
});
export type TeacherState = z.infer<typeof TeacherStateSchema>;
export type UnsignedTeacherState = Omit<TeacherState, "signature">;

/** JSON with object keys sorted at every depth: one byte string per value, whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function mac(key: string | Uint8Array, body: UnsignedTeacherState): string {
  return createHmac("sha256", key).update(canonical(body)).digest("hex");
}

export function signTeacherState(state: UnsignedTeacherState, key: string | Uint8Array): TeacherState {
  // The JSON round trip makes the signed value exactly what storage hands back.
  const plain = JSON.parse(JSON.stringify(state)) as UnsignedTeacherState;
  return { ...plain, signature: mac(key, plain) };
}

/**
 * Reads a stored state back: its version (a newer one is refused, never misread), its schema, the task
 * it belongs to, then its signature. Throws {@link TeacherError}.
 */
export function readTeacherState(raw: unknown, key: string | Uint8Array, taskId: string): TeacherState {
  const version = typeof raw === "object" && raw !== null && "version" in raw ? raw.version : undefined;
  if (typeof version === "number" && version > TEACHER_STATE_VERSION) {
    throw new TeacherError(
      "teacher.state_newer",
      `teacher state v${version} was written by a newer @x/teacher (this one reads v${TEACHER_STATE_VERSION})`,
    );
  }
  const parsed = TeacherStateSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TeacherError(
      "teacher.state_invalid",
      `teacher state does not match schema v${TEACHER_STATE_VERSION}: ${issuesLine(parsed.error)}`,
      { cause: describeIssues(parsed.error) },
    );
  }
  const { signature, ...unsigned } = parsed.data;
  const expected = Buffer.from(mac(key, unsigned), "hex");
  if (unsigned.taskId !== taskId || !timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    throw new TeacherError(
      "teacher.state_tampered",
      `teacher state of task ${taskId} does not match its signature: altered, from another task, or another key`,
    );
  }
  return parsed.data;
}
