import { ParkedRunError, type ParkedRun, type ResumeOptions, type Runner, type TaskSpec } from "@x/runner";
import { z } from "zod/v4";
import { ApprovalError, parkForAnswer, type ApprovalSource } from "./approval";
import { agUiResponse } from "./response";
import { resultEvents } from "./result-events";
import { keepParks } from "./keep-parks";

/** What an AG-UI route needs: the runner, and how the user's newest message becomes a task. */
export interface AgUiRouteOptions {
  runner: Pick<Runner, "streamTask" | "resume">;
  /** The task for the newest user message (`objective`); the AG-UI messages are there to build history from. */
  task: (input: { objective: string; messages: readonly unknown[] }) => TaskSpec;
  /**
   * The host's own parks by id (the interrupt id). Without it a resume must carry the park in its payload
   * (`payload.parked`, as the interrupt's `x.park` metadata gave it), and the runner checks its signature.
   */
  parks?: ApprovalSource["parks"];
  /** Tools and observers for a resumed run. */
  resume?: ResumeOptions;
  /** As `ChatRouteOptions.onParked`: with it, the interrupt carries no `x.park`. */
  onParked?: (parked: ParkedRun) => void | Promise<void>;
}

const RunAgentInputSchema = z.looseObject({
  threadId: z.string().min(1),
  runId: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown().optional() })),
  resume: z
    .array(
      z.looseObject({
        interruptId: z.string().min(1),
        status: z.enum(["resolved", "cancelled"]),
        payload: z
          .looseObject({ approved: z.boolean(), reason: z.string().max(2_000).optional(), parked: z.unknown() })
          .optional(),
      }),
    )
    .optional(),
});

/**
 * A fetch handler for an AG-UI client (`HttpAgent` posts a `RunAgentInput`): a new user message starts a run and
 * streams its AG-UI events; a `resume` entry answering a `tool_approval` interrupt (payload `{ approved, reason? }`,
 * `cancelled` = deny) resumes that park through the runner and streams the rest. Refusals are 403 / 400 JSON.
 */
export async function handleAgUiRequest(request: Request, options: AgUiRouteOptions): Promise<Response> {
  let input: z.infer<typeof RunAgentInputSchema>;
  try {
    input = RunAgentInputSchema.parse(await request.json());
  } catch (error) {
    return refusal(400, "invalid_body", error instanceof Error ? error.message : String(error));
  }
  const { threadId } = input;
  const entry = input.resume?.[0];
  if (entry) {
    try {
      const approved = entry.status === "resolved" && entry.payload?.approved === true;
      const reason = entry.payload?.reason;
      const found = await parkForAnswer(
        { approvalId: entry.interruptId, approved },
        {
          ...(options.parks ? { parks: options.parks } : {}),
          ...(entry.payload?.parked !== undefined ? { parked: entry.payload.parked } : {}),
        },
      );
      const decision = { decision: approved ? "approve" : "deny", ...(reason ? { reason } : {}) } as const;
      const result = await options.runner.resume(found.parked, decision, options.resume);
      const events = resultEvents(
        result,
        found.shown,
        { toolCallId: found.toolCallId, ...decision },
        {
          start: true,
        },
      );
      return agUiResponse(keepParks(toAsync(events), options.onParked), { threadId, sendPark: !options.onParked });
    } catch (error) {
      if (error instanceof ApprovalError) return refusal(403, error.code, error.message);
      if (error instanceof ParkedRunError) return refusal(403, error.code, error.message);
      throw error;
    }
  }
  const last = input.messages.at(-1);
  const objective = last?.role === "user" && typeof last.content === "string" ? last.content : "";
  if (objective.trim() === "") return refusal(400, "invalid_body", "the last message is not a user message with text");
  const stream = options.runner.streamTask(options.task({ objective, messages: input.messages }));
  stream.result.catch(() => undefined);
  return agUiResponse(keepParks(stream, options.onParked), { threadId, sendPark: !options.onParked });
}

function refusal(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status });
}

async function* toAsync<T>(values: Iterable<T>): AsyncGenerator<T> {
  yield* values;
}
