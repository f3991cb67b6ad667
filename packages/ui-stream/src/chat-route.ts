import { ParkedRunError, type ParkedRun, type ResumeOptions, type Runner, type TaskSpec } from "@x/runner";
import { z } from "zod/v4";
import { ApprovalError, approvalFromMessages, parkForAnswer, type ApprovalSource } from "./approval";
import { resultEvents } from "./result-events";
import { keepParks } from "./keep-parks";
import { uiMessageStreamResponse } from "./response";

/** What a chat route needs: the runner, and how a user's message becomes a task. */
export interface ChatRouteOptions {
  runner: Pick<Runner, "streamTask" | "resume">;
  /** The task for the user's newest message (`objective`); the UI messages so far are there to build history from. */
  task: (input: { objective: string; messages: readonly unknown[] }) => TaskSpec;
  /** The host's own parks by id; without it the park comes back from the client and the runner checks its signature. */
  parks?: ApprovalSource["parks"];
  /**
   * Called with each park before its approval request is sent (awaited), for a host that keeps parks itself;
   * with it, the park is not sent to the browser (`data-x-park`) and must be found again through `parks`.
   */
  onParked?: (parked: ParkedRun) => void | Promise<void>;
  /** Tools and observers for a resumed run (as `runner.resume` takes them). */
  resume?: ResumeOptions;
}

const ChatBodySchema = z.looseObject({
  messages: z.array(z.looseObject({ role: z.enum(["user", "assistant", "system"]), parts: z.array(z.unknown()) })),
});
const TextPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });

/**
 * A fetch handler for `useChat`'s default transport (`POST { messages }`): a new user message starts a run and
 * streams it; a message that answers an approval (`addToolApprovalResponse`) resumes that park through the
 * runner — which refuses an edited park, a replayed approval and an expired one — and streams the rest. A
 * refused approval is a 403 (`ApprovalError` / `ParkedRunError` code in a JSON body); a bad body a 400.
 */
export async function handleChatRequest(request: Request, options: ChatRouteOptions): Promise<Response> {
  let body: z.infer<typeof ChatBodySchema>;
  try {
    body = ChatBodySchema.parse(await request.json());
  } catch (error) {
    return refusal(400, "invalid_body", error instanceof Error ? error.message : String(error));
  }
  try {
    const answered = approvalFromMessages(body.messages);
    if (answered) {
      const found = await parkForAnswer(answered.answer, {
        ...(options.parks ? { parks: options.parks } : {}),
        ...(answered.parked !== undefined ? { parked: answered.parked } : {}),
      });
      const { approved, reason } = answered.answer;
      const decision = { decision: approved ? "approve" : "deny", ...(reason ? { reason } : {}) } as const;
      const result = await options.runner.resume(found.parked, decision, options.resume);
      const decided = { toolCallId: found.toolCallId, decision: decision.decision };
      const events = toAsync(resultEvents(result, found.shown, decided));
      return uiMessageStreamResponse(keepParks(events, options.onParked), { sendPark: !options.onParked });
    }
  } catch (error) {
    if (error instanceof ApprovalError)
      return refusal(error.code === "invalid_body" ? 400 : 403, error.code, error.message);
    if (error instanceof ParkedRunError) return refusal(403, error.code, error.message);
    throw error;
  }
  const last = body.messages.at(-1);
  const objective = (last?.role === "user" ? last.parts : [])
    .map((part) => TextPartSchema.safeParse(part))
    .map((part) => (part.success ? part.data.text : ""))
    .join("");
  if (objective.trim() === "") return refusal(400, "invalid_body", "the last message is not a user message with text");
  const stream = options.runner.streamTask(options.task({ objective, messages: body.messages }));
  // The result promise is read by the stream's run_end event; this keeps a failure from being unhandled.
  stream.result.catch(() => undefined);
  return uiMessageStreamResponse(keepParks(stream, options.onParked), { sendPark: !options.onParked });
}

function refusal(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status });
}

async function* toAsync<T>(values: Iterable<T>): AsyncGenerator<T> {
  yield* values;
}
