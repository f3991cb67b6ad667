import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";
import { CodedError } from "./coded-error";

/** Outside data that failed its schema. `issues` name each field by path. */
export class SchemaValidationError extends CodedError<"schema_invalid"> {
  override readonly name = "SchemaValidationError";
  constructor(
    /** What was being read: `model`, `parked run`, `tool arguments`, ... */
    readonly subject: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super("schema_invalid", `invalid ${subject}: ${issuesLine(issues)}`);
  }
}

/** The issues of a zod error as `{ path: "a.b[0]", message }`. */
export function describeIssues(error: z4.$ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({
    path: issue.path
      .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
      .join(""),
    message: issue.message,
  }));
}

/**
 * Issues as one line (`path: message; …`, the root as `(root)`), for error messages, notices and
 * error results: the one spelling every package uses.
 */
export function issuesLine(issues: z4.$ZodError | ReadonlyArray<{ path: string; message: string }>): string {
  const list = "issues" in issues ? describeIssues(issues) : issues;
  return list.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ");
}

/** Parses outside data with a schema; throws a {@link SchemaValidationError} naming the bad fields. */
export function parseWith<S extends z4.$ZodType>(schema: S, value: unknown, subject: string): z4.output<S> {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) throw new SchemaValidationError(subject, describeIssues(parsed.error));
  return parsed.data;
}
