import { describeIssues } from "@x/llm-types";
import type * as z4 from "zod/v4/core";

/** A zod error as one line (`path: message; …`), for error messages, notices and error results. */
export function issuesLine(error: z4.$ZodError): string {
  return describeIssues(error)
    .map((issue) => `${issue.path || "(root)"}: ${issue.message}`)
    .join("; ");
}
