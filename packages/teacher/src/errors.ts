import { CodedError } from "@x/llm-types";

export type TeacherErrorCode = "teacher.config_invalid";

/** A misuse of teacher mode the host must fix; run-time trouble is reported in the result instead. */
export class TeacherError extends CodedError<TeacherErrorCode> {
  override readonly name = "TeacherError";
}
