import { describeIssues } from "@x/llm-types";
import type { z } from "zod";

/** A zod error as one line (`path: message; …`), for error messages, notices and error results. */
export function issuesLine(error: z.ZodError): string {
  return describeIssues(error)
    .map((issue) => `${issue.path || "(root)"}: ${issue.message}`)
    .join("; ");
}
