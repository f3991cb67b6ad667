export type TeacherErrorCode = "teacher.config_invalid";

/** A misuse of teacher mode the host must fix; run-time trouble is reported in the result instead. */
export class TeacherError extends Error {
  constructor(
    readonly code: TeacherErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TeacherError";
  }
}
