import { CodedError } from "@x/llm-types";

export type TeacherErrorCode =
  | "teacher.config_invalid"
  /** A queued teacher task's stored state is not valid JSON of its schema. */
  | "teacher.state_invalid"
  /** Its signature does not match: altered in storage, copied from another task, or signed with another key. */
  | "teacher.state_tampered"
  /** Written by a newer version of this package: refused rather than misread. */
  | "teacher.state_newer";

/**
 * A misuse of teacher mode the host must fix, or a queued teacher task's stored state refused; run-time
 * trouble is reported in the result instead.
 */
export class TeacherError extends CodedError<TeacherErrorCode> {
  override readonly name = "TeacherError";
}
