import type { ToolCall } from "@x/llm-types";
import { z } from "zod/v4";
import type { RunContext } from "../state/run-context";
import type { Slot } from "../state/run-parts";
import { addGate } from "../state/stats";
import { canonicalJson } from "../vocabulary/canonical-json";
import {
  checkAnswer,
  checkRequest,
  ElicitationDecisionSchema,
  ElicitationError,
  type ElicitationDecision,
  type ElicitationRequest,
  type ElicitationResult,
  type PendingElicitation,
} from "../vocabulary/elicitation";
import type { ParkedRun, PendingCall } from "../vocabulary/park-schema";
import { ApprovalDecisionSchema } from "../vocabulary/schemas";
import type { ResumeDecision } from "../vocabulary/runner-api";

/** A question the call asked and the person's answer to it. */
type Answered = ElicitationRequest & { result: ElicitationResult };

/** Per run: the answers a resumed call replays, and the question a call parked on — by call id. */
interface CallElicitations {
  replay: Map<string, Answered[]>;
  parked: Map<string, PendingElicitation>;
}

/** The run's book rides on its RunContext under this key, so no module keeps a registry between calls. */
const ELICITATIONS = Symbol("x.elicitations");

function bookOf(ctx: RunContext): CallElicitations {
  const holder = ctx as RunContext & { [ELICITATIONS]?: CallElicitations };
  return (holder[ELICITATIONS] ??= { replay: new Map(), parked: new Map() });
}

/**
 * What a live approver may answer to a question. Host code: anything else is no answer, and an
 * `approve` cannot fill in a form — both leave the question to a park.
 */
const LiveAnswerSchema = z.union([
  z.literal("unavailable"),
  ApprovalDecisionSchema.strip(),
  ...ElicitationDecisionSchema.options.map((option) => option.strip()),
]);

/** The live approver's answer, or undefined when nobody can answer now. */
async function askLive(
  run: RunContext,
  call: ToolCall,
  request: ElicitationRequest,
  signal: AbortSignal,
): Promise<ElicitationResult | undefined> {
  const approver = run.deps.approver;
  if (!approver || signal.aborted) return undefined;
  const started = run.deps.clock.now();
  let raw: unknown;
  try {
    raw = await approver({
      toolCall: call,
      kind: "elicitation",
      runId: run.runId,
      signal,
      elicitation: request,
      ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
      ...(run.lineage ? { path: run.lineage.path } : {}),
    });
  } catch {
    return undefined;
  }
  const parsed = LiveAnswerSchema.safeParse(raw);
  if (!parsed.success || parsed.data === "unavailable" || parsed.data.decision === "approve") return undefined;
  const waitMs = Math.max(0, run.deps.clock.now() - started);
  if (parsed.data.decision !== "answer") {
    addGate(run.state.stats, { kind: "elicitation", waitMs, decision: "decline" });
    return { action: "decline" };
  }
  const content = checkAnswer(request.schema, parsed.data.answer);
  addGate(run.state.stats, { kind: "elicitation", waitMs, decision: "answer" });
  return { action: "accept", content };
}

export interface ElicitorOptions {
  /** The tool's own signal, handed to the approver. */
  signal: AbortSignal;
  /** False for a call that may run beside others: it cannot park the run, so unanswered is declined. */
  canPark: boolean;
  /** Stops the call: the run parks on the question recorded for it. */
  park: () => void;
}

/**
 * `ctx.elicit` for one attempt at one call: first the answers a resume recorded for it (in order,
 * each for the same question), then the live approver, then a park — or, where a park is not
 * possible, a decline. The model never answers.
 */
export function callElicitor(
  run: RunContext | undefined,
  call: ToolCall,
  options: ElicitorOptions,
): (request: ElicitationRequest) => Promise<ElicitationResult> {
  const book = run ? bookOf(run) : undefined;
  const replay = [...(book?.replay.get(call.id) ?? [])];
  book?.replay.delete(call.id);
  const answered: Answered[] = [];
  return async (raw) => {
    const request = checkRequest(raw);
    const recorded = replay.shift();
    if (recorded) {
      const asked = { message: recorded.message, schema: recorded.schema };
      if (canonicalJson(asked) !== canonicalJson(request)) {
        throw new ElicitationError(
          "question_changed",
          `"${call.name}" asked another question than the one the person answered; the answer is not used for it`,
        );
      }
      answered.push(recorded);
      return recorded.result;
    }
    const live = run ? await askLive(run, call, request, options.signal) : undefined;
    if (live) {
      answered.push({ ...request, result: live });
      return live;
    }
    if (!book || !options.canPark) return { action: "decline" };
    book.parked.set(call.id, { ...request, ...(answered.length > 0 ? { answered } : {}) });
    options.park();
    throw new ElicitationError("parked", `"${call.name}" waits for a person's answer: the run parked`);
  };
}

/** The pending call a run parks on when `call` asked a question nobody could answer now. */
function elicitationPending(call: ToolCall, elicitation: PendingElicitation): Omit<PendingCall, "index"> {
  return {
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
    kind: "elicitation",
    elicitation,
  };
}

/** The question `call` parked on in this attempt, if it did. */
export function parkedElicitation(ctx: RunContext, call: ToolCall): Omit<PendingCall, "index"> | undefined {
  const book = bookOf(ctx);
  const pending = book.parked.get(call.id);
  if (!pending) return undefined;
  book.parked.delete(call.id);
  return elicitationPending(call, pending);
}

/**
 * After a call ran: if it parked on a question, it is taken out of the slots (it has no result)
 * and becomes the run's pending call.
 */
export async function elicitationParked(
  ctx: RunContext,
  slots: Slot[],
): Promise<Omit<PendingCall, "index"> | undefined> {
  const last = slots.at(-1);
  if (!last) return undefined;
  await last.result;
  const parked = parkedElicitation(ctx, last.call);
  if (parked) slots.pop();
  return parked;
}

/** The call a parked tree waits on, at whatever depth. */
function innermost(park: ParkedRun): PendingCall {
  let at = park;
  while (at.pending.child) at = at.pending.child;
  return at.pending;
}

/**
 * Before anything is claimed: the decision fits what the park waits on. A question takes `answer`
 * (checked against its form), `decline` or `deny`; an approval takes `approve` or `deny`.
 */
export function checkDecisionFits(park: ParkedRun, decision: ResumeDecision): void {
  const pending = innermost(park);
  if (pending.elicitation) {
    if (decision.decision === "approve") {
      throw new ElicitationError(
        "decision_mismatch",
        `parked run ${park.parkId} waits for an answer to a question: resume it with "answer" (or "decline", "deny")`,
      );
    }
    if (decision.decision === "answer") checkAnswer(pending.elicitation.schema, decision.answer);
    return;
  }
  if (decision.decision === "answer" || decision.decision === "decline") {
    throw new ElicitationError(
      "decision_mismatch",
      `parked run ${park.parkId} waits for an approval, not an answer: resume it with "approve" or "deny"`,
    );
  }
}

/** A resumed call's question is answered: its attempt replays every answer it got, this one last. */
export function replayAnswers(
  ctx: RunContext,
  call: ToolCall,
  pending: PendingElicitation,
  decision: ElicitationDecision,
): void {
  const result: ElicitationResult =
    decision.decision === "answer"
      ? { action: "accept", content: checkAnswer(pending.schema, decision.answer) }
      : { action: "decline" };
  const answers = [...(pending.answered ?? []), { message: pending.message, schema: pending.schema, result }];
  bookOf(ctx).replay.set(call.id, answers);
}
