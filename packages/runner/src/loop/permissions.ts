import type { ToolCall, ToolResultMessage } from "@x/llm-types";
import { z } from "zod/v4";
import type { PendingCall } from "../vocabulary/park-schema";
import type { RunContext } from "../state/run-context";
import { runBudgetExceeded } from "../decisions/budget";
import { ApprovalDecisionSchema } from "../vocabulary/schemas";
import { addGate } from "../state/stats";
import { errorResult } from "../effects/tools";
import type { ApprovalKind, Permission, Terminal } from "../vocabulary/types";
import type { AutoModeRoute } from "../state/run-parts";
import { ruleDenial, type RuleDenial } from "../decisions/auto-mode-rules";
import { reportVerdict } from "../effects/classification-report";

/** What the gate decided for one call. */
export type GateOutcome =
  { run: true } | { result: ToolResultMessage } | { park: Omit<PendingCall, "index"> } | { terminal: Terminal };

/**
 * What a live approver may answer. It is host code: a decision outside the closed set is no answer,
 * never a yes. Extra keys (who approved, a ticket id) are the host's business and are dropped.
 */
const ApproverAnswerSchema = z.union([z.literal("unavailable"), ApprovalDecisionSchema.strip()]);

const ABORTED: GateOutcome = { terminal: { code: "aborted", cause: "host", message: "the run was aborted" } };

/**
 * The run ends at the denial limit: it exists because the classifier keeps refusing, so an
 * unattended run must not wait on it.
 */
function denialLimitStop(ctx: RunContext, reason?: string): GateOutcome {
  const { tripped, consecutiveBlocks, totalBlocks } = ctx.state.denials;
  const counts = `${tripped ?? "blocks"}: ${consecutiveBlocks} in a row, ${totalBlocks} in total`;
  const last = reason ? `; last reason: ${reason}` : "";
  return {
    terminal: {
      code: "denial_limit",
      cause: "classifier",
      message: `auto mode reached its denial limit (${counts}) and no person is available to decide${last}`,
    },
  };
}

/**
 * Asks the live approver, recording the wait in `humanReview`. No approver, or one that says
 * `unavailable` ⇒ park — except at the denial limit, where the run stops instead.
 */
async function askPerson(ctx: RunContext, call: ToolCall, kind: ApprovalKind, reason?: string): Promise<GateOutcome> {
  const approver = ctx.deps.approver;
  const cannotAsk = (): GateOutcome =>
    kind === "denial_limit"
      ? denialLimitStop(ctx, reason)
      : {
          park: {
            toolCallId: call.id,
            toolName: call.name,
            arguments: call.arguments,
            kind,
            ...(reason !== undefined ? { reason } : {}),
          },
        };
  // An aborted run neither asks a person nor parks: the host has stopped it.
  if (ctx.signal.aborted) return ABORTED;
  if (!approver) return cannotAsk();
  const started = ctx.deps.clock.now();
  let answer: z.infer<typeof ApproverAnswerSchema>;
  try {
    const raw: unknown = await approver({
      toolCall: call,
      kind,
      runId: ctx.runId,
      signal: ctx.signal,
      ...(reason !== undefined ? { reason } : {}),
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
      ...(ctx.lineage ? { path: ctx.lineage.path } : {}),
    });
    const parsed = ApproverAnswerSchema.safeParse(raw);
    answer = parsed.success ? parsed.data : "unavailable";
  } catch {
    // A broken approver is not a yes.
    answer = "unavailable";
  }
  const waitMs = Math.max(0, ctx.deps.clock.now() - started);
  const decision = answer === "unavailable" ? "unavailable" : answer.decision;
  addGate(ctx.state.stats, { kind, waitMs, decision });
  ctx.emit({ type: "approval", toolCall: call, kind, decision, waitMs });
  if (ctx.signal.aborted) return ABORTED;
  if (answer === "unavailable") return cannotAsk();
  afterPersonDecided(ctx, kind, answer.decision);
  if (answer.decision === "approve") return { run: true };
  return { result: deniedResult(call, answer.reason, ctx.deps.clock.now()) };
}

/**
 * A person answered a call auto mode handed over: the denial limit's streaks restart. On an appeal,
 * a block the person upheld is the one the denial limit counts; one they overruled is not counted.
 */
export function afterPersonDecided(ctx: RunContext, kind: ApprovalKind, decision?: "approve" | "deny"): void {
  if (kind === "appeal") {
    if (decision === "deny") ctx.autoMode?.upheld();
    return;
  }
  if (kind !== "ask" && ctx.state.denials.tripped) ctx.autoMode?.personDecided();
}

export function deniedResult(call: ToolCall, reason: string | undefined, now: number): ToolResultMessage {
  return errorResult(
    call,
    `The user denied this call${reason ? `: ${reason}` : "."} It was not run.`,
    { error: "denied", reason },
    now,
  );
}

/**
 * A call to a tool the host denies. Not a block the denial limit counts (no classifier judged it)
 * and not a person's no: the tool is never available in this run, whatever the model argues.
 */
function forbiddenResult(call: ToolCall, now: number): ToolResultMessage {
  return errorResult(
    call,
    `"${call.name}" is not available in this run: the host forbids it. It was not run; do not call it again.`,
    { error: "forbidden" },
    now,
  );
}

/** A reason as the middle of the model's one sentence: its own closing stop dropped. */
function sentence(reason: string): string {
  return reason.replace(/[\s.]+$/, "");
}

/**
 * A call a host rule forbids, under any permission: no classifier is asked and no person may approve
 * it. Not a block the denial limit counts: the host ruled, not the classifier.
 */
function ruleDenied(ctx: RunContext, call: ToolCall, denial: RuleDenial): GateOutcome {
  const ancestor = denial.runId !== ctx.runId;
  reportVerdict(ctx, call, {
    verdict: "block",
    source: "rule",
    ruleId: denial.ruleId,
    reason: denial.reason,
    wallMs: 0,
    ...(ancestor ? { station: "ancestor", ancestorRunId: denial.runId } : { station: "leg" }),
  });
  return {
    result: errorResult(
      call,
      `Blocked by the host's rule ${denial.ruleId}: ${sentence(denial.reason)}. ` +
        "It was not run; do not call it this way again.",
      { error: "blocked", reason: denial.reason, ruleId: denial.ruleId },
      ctx.deps.clock.now(),
    ),
  };
}

/** Clears one checked call: a host deny rule first, then allow, ask a person, auto mode's classifier, or refuse. */
export async function gateCall(ctx: RunContext, call: ToolCall, permission: Permission): Promise<GateOutcome> {
  const denial = permission === "deny" ? undefined : ruleDenial(ctx, call);
  if (denial) return ruleDenied(ctx, call, denial);
  switch (permission) {
    case "allow":
      return { run: true };
    case "deny":
      return { result: forbiddenResult(call, ctx.deps.clock.now()) };
    case "ask":
      return askPerson(ctx, call, "ask");
    case "auto":
      return gateAuto(ctx, call);
    default:
      return unknownPermission(permission);
  }
}

/** `permissionFor` reads a value outside the set as `ask`, so only a new, unhandled member lands here. */
function unknownPermission(permission: never): never {
  throw new TypeError(`no gate for permission ${JSON.stringify(permission)}`);
}

/** Where the denial limit sends a call it does not let the classifier judge. */
async function handOver(
  ctx: RunContext,
  call: ToolCall,
  route: Exclude<AutoModeRoute, { route: "classify" }>,
  reason?: string,
): Promise<GateOutcome> {
  return route.route === "ask" ? askPerson(ctx, call, route.kind, reason) : denialLimitStop(ctx, reason);
}

/** An `auto` call: the denial limit's word, the budget, then the classifier's verdict. */
async function gateAuto(ctx: RunContext, call: ToolCall): Promise<GateOutcome> {
  const auto = ctx.autoMode;
  if (!auto) return askPerson(ctx, call, "auto_unavailable");
  const before = auto.route();
  if (before.route !== "classify") return handOver(ctx, call, before);
  // Checked here as well as inside the decider, so a spent run ends typed instead of asking a person.
  const spent = runBudgetExceeded(ctx);
  if (spent) return { terminal: spent };
  const ruling = await auto.decide(call, ctx.signal);
  if (ctx.signal.aborted) return ABORTED;
  if (ruling.verdict === "unavailable") {
    const over = runBudgetExceeded(ctx);
    if (over) return { terminal: over };
  }
  switch (ruling.verdict) {
    case "allow":
      return { run: true };
    case "block": {
      // The host lets a person overrule the classifier: the block is an appeal, not yet a denial.
      if (ctx.deps.autoMode.appeal) return askPerson(ctx, call, "appeal", ruling.reason);
      const after = auto.route();
      if (after.route !== "classify") return handOver(ctx, call, after, ruling.reason);
      return {
        result: errorResult(
          call,
          `Auto mode blocked this call: ${sentence(ruling.reason)}. It was ` +
            "not run; do something else, or explain why it is needed.",
          { error: "blocked", reason: ruling.reason },
          ctx.deps.clock.now(),
        ),
      };
    }
    case "unavailable":
      return askPerson(ctx, call, "auto_unavailable");
    case "parse_error":
      return askPerson(ctx, call, "auto_parse_error");
  }
}
