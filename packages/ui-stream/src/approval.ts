import type { ResumeOptions, Runner, TaskResult } from "@x/runner";
import { z } from "zod/v4";

/** An approval the browser sent back: which park (approval id) and the person's decision. Untrusted as is. */
export interface ApprovalAnswer {
  /** The approval id of the request: the park id. */
  approvalId: string;
  approved: boolean;
  reason?: string;
  /** The tool part the person answered; when given it must be the park's pending call. */
  toolCallId?: string;
}

export const APPROVAL_ERROR_CODES = ["park_missing", "approval_mismatch", "invalid_body"] as const;
export type ApprovalErrorCode = (typeof APPROVAL_ERROR_CODES)[number];

/** An approval refused before the runner was asked; a park the runner refuses throws its `ParkedRunError`. */
export class ApprovalError extends Error {
  constructor(
    readonly code: ApprovalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ApprovalError";
  }
}

const ApprovalAnswerSchema = z.strictObject({
  approvalId: z.string().min(1),
  approved: z.boolean(),
  reason: z.string().max(2_000).optional(),
  toolCallId: z.string().min(1).optional(),
});

const PartSchema = z.looseObject({ type: z.string() });
const RespondedToolPartSchema = z.looseObject({
  type: z.string().regex(/^(tool-.+|dynamic-tool)$/),
  toolCallId: z.string().min(1),
  state: z.literal("approval-responded"),
  approval: z.looseObject({ id: z.string().min(1), approved: z.boolean(), reason: z.string().optional() }),
});
const ParkPartSchema = z.looseObject({
  type: z.literal("data-x-park"),
  data: z.looseObject({ parked: z.looseObject({ parkId: z.string() }) }),
});
const MessagesSchema = z.array(z.looseObject({ role: z.string(), parts: z.array(PartSchema) }));

/**
 * The approval a `useChat` client sent back (its messages, after `addToolApprovalResponse`): the last assistant
 * message's tool part in state `approval-responded`, and the signed park its `data-x-park` part carries (the
 * runner checks that park's signature on resume). `undefined` when the last assistant message answers nothing.
 */
export function approvalFromMessages(messages: unknown): { answer: ApprovalAnswer; parked?: unknown } | undefined {
  const parsed = MessagesSchema.safeParse(messages);
  if (!parsed.success)
    throw new ApprovalError("invalid_body", `the messages are not UI messages: ${parsed.error.message}`);
  const last = parsed.data.findLast((message) => message.role === "assistant");
  if (!last) return undefined;
  for (const part of last.parts) {
    const tool = RespondedToolPartSchema.safeParse(part);
    if (!tool.success) continue;
    const { approval, toolCallId } = tool.data;
    const answer: ApprovalAnswer = {
      approvalId: approval.id,
      approved: approval.approved,
      toolCallId,
      ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
    };
    const park = last.parts
      .map((candidate) => ParkPartSchema.safeParse(candidate))
      .find((candidate) => candidate.success && candidate.data.data.parked.parkId === approval.id);
    return { answer, ...(park?.success ? { parked: park.data.data.parked } : {}) };
  }
  return undefined;
}

/** Reads an approval body (`{ approvalId, approved, reason?, toolCallId? }`) sent by any client. */
export function parseApprovalAnswer(body: unknown): ApprovalAnswer {
  const parsed = ApprovalAnswerSchema.safeParse(body);
  if (!parsed.success) throw new ApprovalError("invalid_body", `not an approval: ${parsed.error.message}`);
  const { reason, toolCallId, ...rest } = parsed.data;
  return { ...rest, ...(reason !== undefined ? { reason } : {}), ...(toolCallId !== undefined ? { toolCallId } : {}) };
}

/** Where the park an answer refers to comes from. */
export interface ApprovalSource {
  /** The host's own parks, by park id: preferred over a copy the client sent. */
  parks?: (parkId: string) => Promise<unknown>;
  /** The park the client sent back (a `data-x-park` part, an AG-UI interrupt's `x.park`): verified by the runner. */
  parked?: unknown;
}

const ParkRefSchema = z.looseObject({
  parkId: z.string().min(1),
  pending: z.looseObject({ toolCallId: z.string().min(1) }),
  messages: z.array(z.unknown()),
});

/** The park an answer decides, as found: the value to hand the runner, its pending call and how far it got. */
export interface FoundPark {
  /** Untrusted until the runner's `resume` verifies it. */
  parked: unknown;
  toolCallId: string;
  /** How many of the run's messages the park holds (a stream showed them already). */
  shown: number;
}

/**
 * Finds the park an answer decides and checks the answer is about it: the same park id, and (when the answer
 * names one) the same pending call. The runner's `resume` then checks the park's schema, signature, expiry and
 * ledger claim, so an edited park or a replayed approval is refused and the call runs at most once.
 */
export async function parkForAnswer(answer: ApprovalAnswer, source: ApprovalSource): Promise<FoundPark> {
  const stored = source.parks ? await source.parks(answer.approvalId) : undefined;
  const parked = stored ?? source.parked;
  if (parked === undefined) throw new ApprovalError("park_missing", `no parked run ${answer.approvalId} is known`);
  const ref = ParkRefSchema.safeParse(parked);
  if (!ref.success) throw new ApprovalError("park_missing", `parked run ${answer.approvalId} is not a parked run`);
  if (ref.data.parkId !== answer.approvalId)
    throw new ApprovalError(
      "approval_mismatch",
      `the approval names ${answer.approvalId}, the park is ${ref.data.parkId}`,
    );
  if (answer.toolCallId !== undefined && answer.toolCallId !== ref.data.pending.toolCallId)
    throw new ApprovalError(
      "approval_mismatch",
      `parked run ${answer.approvalId} waits on call ${ref.data.pending.toolCallId}, not ${answer.toolCallId}`,
    );
  return { parked, toolCallId: ref.data.pending.toolCallId, shown: ref.data.messages.length };
}

/** Decides a parked call as the answer says, through the runner's signed resume. */
export async function resumeApproval(
  runner: Pick<Runner, "resume">,
  answer: ApprovalAnswer,
  source: ApprovalSource,
  options: ResumeOptions = {},
): Promise<TaskResult> {
  const { parked } = await parkForAnswer(answer, source);
  const decision = {
    decision: answer.approved ? "approve" : "deny",
    ...(answer.reason ? { reason: answer.reason } : {}),
  } as const;
  return runner.resume(parked, decision, options);
}
