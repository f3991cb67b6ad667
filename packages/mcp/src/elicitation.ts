import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { ElicitationError, type ElicitationForm, type ToolContext } from "@x/runner";
import { Ajv } from "ajv";
import { addFormats } from "./json-schema";

/** The tool call a server asked its question during, when exactly one of its calls was running. */
export interface ElicitationCall {
  runId: string;
  toolCallId: string;
  /** The runner tool name (`<server>__<tool>`). */
  toolName: string;
}

/** A server's question for the user, as the host's person sees it. */
export interface McpElicitationRequest {
  server: string;
  /** The server's words: untrusted text, shown as the server's, never as the user's. */
  message: string;
  /** The form's JSON Schema (flat: strings, numbers, booleans, enums). */
  schema: Record<string, unknown>;
  call?: ElicitationCall;
  signal: AbortSignal;
}

/** A person's answer: the form filled in, a refusal, or a dismissal. */
export type ElicitationAnswer =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

/**
 * Asks a person (the run's live approver, or whoever the host routes it to). `unavailable` when
 * nobody can answer now: the server is told the user declined. The model never answers for the user.
 */
export type Elicitor = (request: McpElicitationRequest) => Promise<ElicitationAnswer | "unavailable">;

/**
 * The run's own way to ask: the calling tool's `ctx.elicit` — its live approver, or a park. The
 * runner checks the server's form (a schema outside the form subset is declined); a park withdraws
 * the question (`cancel`): the call is stopped, and re-run with the person's answer on resume.
 */
export function runElicitor(elicit: ToolContext["elicit"]): Elicitor {
  return async (request) => {
    try {
      // Outside data: `ctx.elicit` checks it against the form subset before anyone is asked.
      const result = await elicit({ message: request.message, schema: request.schema as ElicitationForm });
      return result.action === "accept" ? { action: "accept", content: result.content } : { action: "decline" };
    } catch (error) {
      return error instanceof ElicitationError && error.code === "parked" ? { action: "cancel" } : "unavailable";
    }
  };
}

const DECLINE: ElicitResult = { action: "decline" };
// Defaults are filled in before the check, so a form a person left blank keeps the server's defaults.
const ajv = new Ajv({ useDefaults: true, strict: false });
addFormats(ajv);

/**
 * Answers one `elicitation/create`. Form mode only: a URL-mode request (open this page) is declined,
 * because a server's link is not something to open on the user's behalf. An accepted answer must
 * satisfy the server's schema, or it is declined rather than sent half-right.
 */
export async function answerElicitation(
  elicitor: Elicitor | undefined,
  params: ElicitRequest["params"],
  context: { server: string; call?: ElicitationCall; signal: AbortSignal },
): Promise<ElicitResult> {
  if (!elicitor || params.mode === "url" || !("requestedSchema" in params)) return DECLINE;
  const schema = params.requestedSchema as Record<string, unknown>;
  let answer: ElicitationAnswer | "unavailable";
  try {
    answer = await elicitor({ ...context, message: params.message, schema });
  } catch {
    return DECLINE;
  }
  if (answer === "unavailable") return DECLINE;
  if (answer.action !== "accept") return { action: answer.action };
  const content = structuredClone(answer.content);
  let valid: boolean;
  try {
    valid = ajv.validate(schema, content);
  } catch {
    valid = false;
  }
  return valid ? { action: "accept", content } : DECLINE;
}
