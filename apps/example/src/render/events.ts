import type { PendingCallView } from "../pending-call";

/**
 * What the CLI reports while it works, in order. The human renderer turns these into lines; with
 * `--json` each one is printed as it happens, one JSON object per line (`type` first).
 */
export type AppEvent =
  | { type: "banner"; text: string }
  | { type: "scenario"; name: string; title: string; about: string }
  | { type: "note"; text: string }
  /** A model call began (`phase: start`) or ended; `speaker` says whose call it is. */
  | {
      type: "model_call";
      phase: "start" | "end";
      speaker: Speaker;
      model: string;
      /**
       * As the provider reported them, else estimated; for a call no provider served (refused,
       * unreachable), only the brain's estimate, which no total counts.
       */
      tokens?: number;
      /** What the call cost, in integer micro-dollars (at the catalog's prices), read the same way as `tokens`. */
      costMicroUsd?: number;
      stopReason?: string;
      errorKind?: string;
    }
  /** Model text as it arrives (`x-agent run`, for the speaker doing the task); the `turn` event still follows. */
  | { type: "text_delta"; speaker: Speaker; delta: string }
  /** The text an assistant turn ended with (student, teacher, or a helper's verdict). */
  | { type: "turn"; speaker: Speaker; model: string; text: string }
  | { type: "tool_call"; speaker: Speaker; id: string; name: string; arguments: Record<string, unknown> }
  | {
      type: "verdict";
      tool: string;
      id?: string;
      verdict: "allow" | "block" | "unavailable" | "parse_error";
      reason?: string;
      model?: string;
      /**
       * Whose classifier ruled: the calling run's own (`leg`), or an ancestor run's, frozen when the sub-run
       * started.
       */
      station?: "leg" | "ancestor";
      /** Who ruled: a host rule, the classifier, or the first ruling on the identical call, reused. */
      source?: "rule" | "classifier" | "reused";
      /** The host rule that decided. */
      ruleId?: string;
      /** The classifier's attempt that ruled (2: asked again after a reply with no verdict). */
      attempt?: number;
    }
  | { type: "tool_result"; speaker: Speaker; id: string; name: string; isError: boolean; text: string }
  | {
      type: "escalation";
      attempt: number;
      trigger: string;
      strategy?: string;
      correction?: string;
      nextStep?: string;
      confidence: number;
      takeover: boolean;
    }
  | {
      type: "strategies_retrieved";
      scope: string;
      query: string;
      hits: Array<{ id: string; strategy: string; score: number }>;
    }
  | { type: "strategy_stored"; scope: string; id: string; strategy: string; confidence: number }
  | { type: "notice"; code: string; audience: string; message: string }
  /** `x-agent enqueue` queued a task: its id (alone on stdout for a person, so `$(x-agent enqueue …)` is the id). */
  | { type: "queued"; id: string; owner: string }
  /** A model call failed and the library tries it again after `delayMs`: retry `attempt` of `of`. */
  | { type: "retry"; model: string; attempt: number; of: number; delayMs: number; errorKind?: string }
  /**
   * A live approver asks (`x-agent run` on a terminal, or `--ask`): one line answers it. Carries the whole
   * call; a person sees its head and asks for the rest with `v`.
   */
  | ({ type: "approval_request" } & PendingCallView)
  /** The person typed `v` at the approval prompt: the same call, shown whole; the prompt asks again. */
  | ({ type: "approval_view" } & PendingCallView)
  /** The answer typed at the approval prompt was none of y / n / p / v: the prompt asks again. */
  | { type: "approval_reask"; answer: string }
  /** A gated call parked to a file: the whole call, the file, the command that shows it and the one that decides it. */
  | ({ type: "parked"; file: string; show: string; resume: string } & PendingCallView)
  /**
   * The call a parked run or a queued task waits on, shown whole by `x-agent resume` and `x-agent task`:
   * before the decision it is about to apply, or alone with `decide`, the command that decides it.
   */
  | ({ type: "pending_call"; decision?: "approve" | "deny" | "answer" | "decline"; decide?: string } & PendingCallView)
  | { type: "result"; label: string; summary: RunSummary; output: string; terminal: { code: string; message: string } }
  /** Which mode a task goes to (`routeTask` of @x/council), and why. */
  | { type: "route"; mode: "teacher" | "council"; reason: string }
  /** A council review ended: how each reviewer fared, every merged finding, and what it all cost. */
  | {
      type: "council";
      label: string;
      status: string;
      stoppedBecause: string;
      rounds: number;
      /** The score a finding needed to be reported. */
      threshold: number;
      reviewers: ReviewerRow[];
      /** Reported ones first (highest score first), then the dropped ones. */
      findings: FindingRow[];
      modelCalls: number;
      summary: RunSummary;
    }
  | { type: "summary"; rows: RunSummary[] }
  | { type: "error"; code: string; message: string }
  /** `x-agent eval auto-mode`: the report as text, and its figures for `--json`. */
  | { type: "eval_report"; text: string; figures: Record<string, unknown> };

/**
 * Who a model call works for: the student doing the task, the teacher advising, the helper checking,
 * the classifier gating, the agent (a run with no teacher), a child (a sub-run's own loop), or a
 * reviewer of a council (its review or its critique of the others' findings).
 */
export type Speaker = "student" | "teacher" | "helper" | "classifier" | "agent" | "child" | "reviewer";

/** One council member's part in a review. */
export interface ReviewerRow {
  name: string;
  lens?: string;
  /** `completed`, or why its review gave no findings (`timeout`, `failed`, …). */
  status: string;
  /** Its run's terminal code, the reason behind a `failed` (`rate_limited`, `auth`, `bad_request`, …). */
  code?: string;
  /** Findings in its own review. */
  findings: number;
  /** Review and critique runs it made. */
  runs: number;
  tokens: number;
  costMicroUsd: number;
}

/** One merged finding of a council review, and who stood where on it. */
export interface FindingRow {
  id: string;
  /** `file:line`. */
  location: string;
  claim: string;
  severity: string;
  /** 0 to 100. */
  score: number;
  foundBy: string[];
  confirmedBy: string[];
  disputedBy: Array<{ reviewer: string; reason: string }>;
  /** At or above the threshold: reported; else dropped. */
  reported: boolean;
}

/** One row of the closing table. */
export interface RunSummary {
  label: string;
  status: string;
  turns: number;
  tokens: number;
  /** Integer micro-dollars, student and teacher together. */
  costMicroUsd: number;
  /** Some count was estimated (chars/4) because the provider reported none. */
  tokensEstimated: boolean;
  /** Teacher tokens over all tokens, 0..1. */
  teacherShare: number;
  strategiesUsed: number;
  strategiesStored: number;
  /** The run's direct sub-runs, each already counted in the numbers above. */
  children?: RunSummary[];
}

/** Where events go. */
export interface EventSink {
  emit(event: AppEvent): void;
  /** Stops any spinner and flushes; called once at the end. */
  close(): void;
}
