import type { ModelRef, RoleName } from "@x/llm-types";
import type { Budget, Permission, RunStats, Tool } from "@x/runner";
import type { Location, Severity } from "./findings";
import type { FindingMatcher } from "./matcher";

/** One member of the council. */
export interface CouncilReviewer {
  /** Unique within the council; findings and disputes are reported by it. */
  name: string;
  /** What this reviewer looks for: `security`, `correctness`, `performance`, `tests`, … */
  lens?: string;
  /** The reviewer's model (ref, tier word, Model, or a fallback list). Default: the runner's default role. */
  model?: ModelRef | readonly ModelRef[];
  /** Or the role whose model it runs on. */
  role?: RoleName;
  /** Tools the reviewer may use (reading more files, running tests); default none. */
  tools?: readonly Tool[];
  /** Replaces the built-in reviewer instructions. */
  systemPrompt?: string;
  /** Turns per review or critique run. Default 6. */
  maxTurns?: number;
}

/** The work under review: an objective, and the files it is about (shown with line numbers). */
export interface CouncilTask {
  /** What to look for, in the user's words: "Find all the bugs in this change". */
  objective: string;
  files?: ReadonlyArray<{ path: string; content: string }>;
}

export interface CouncilConfig {
  /** At least one; different models and/or lenses are what makes a council worth its cost. */
  reviewers: readonly CouncilReviewer[];
  /** Critique rounds after the reviews, 0 to 3. Default 1. */
  maxRounds?: number;
  /** The score (0–100) a finding needs to be reported. Default 60. */
  threshold?: number;
  /** Decides which findings are one problem. Default `locationMatcher()`. */
  matcher?: FindingMatcher;
  /** The whole council's budget: every review and critique call counts against it as it is spent. */
  budget?: Budget;
  /** Deadline for each review or critique run. Default 120 000 ms. */
  reviewerTimeoutMs?: number;
  /** Permissions for the reviewers' tools; a reviewer's tools can only be narrowed below this. */
  permissions?: Readonly<Record<string, Permission>>;
  /** Default permission for the reviewers' tools. Default `allow`. */
  defaultPermission?: Permission;
  /** Aborts every review and critique run at once; the result is then `aborted`. */
  signal?: AbortSignal;
  /** The host's session, carried by the council's run and every reviewer's. */
  sessionId?: string;
}

/** A merged, scored finding: what the council says, and who said it. */
export interface CouncilFinding {
  /** `F1`, `F2`, … stable for the same inputs. */
  id: string;
  location: Location;
  claim: string;
  evidence: string;
  severity: Severity;
  /** Combined confidence, 0 to 1. */
  confidence: number;
  /** 0 to 100; reported when at least the threshold. */
  score: number;
  /** Reviewers whose own review reported it. */
  foundBy: string[];
  /** Reviewers who confirmed it in a critique round. */
  confirmedBy: string[];
  /** Reviewers who disputed it (a finder who withdrew it included), with their reason. */
  disputedBy: Array<{ reviewer: string; reason: string }>;
  /** How many raw findings were merged into this one. */
  merged: number;
}

/** How one reviewer fared. */
export interface ReviewerReport {
  /** The reviewer's `name` in the config. */
  name: string;
  /** `completed`, or why its review did not produce findings (`timeout`, `failed`, `budget_exhausted`, …). */
  status: string;
  /** The run's terminal code or the council's reason. */
  code: string;
  /** Findings in its own review. */
  findings: number;
  /** Review and critique runs it made. */
  runs: number;
  tokens: number;
  costMicroUsd: number;
}

export const COUNCIL_STOPS = ["agreement", "round_cap", "budget", "no_findings", "aborted", "all_failed"] as const;
/** Why the council stopped where it did. */
export type CouncilStop = (typeof COUNCIL_STOPS)[number];

export interface CouncilResult {
  /**
   * `partial`: the budget cut a phase short (what was found is still scored); `failed`: no reviewer produced a review.
   */
  status: "completed" | "partial" | "failed" | "aborted";
  stoppedBecause: CouncilStop;
  /** Findings at or above the threshold, highest score first. */
  findings: CouncilFinding[];
  /** The rest, so a host can see what was filtered out and why. */
  belowThreshold: CouncilFinding[];
  reviewers: ReviewerReport[];
  /** Critique rounds run. */
  rounds: number;
  /** Every model call of the council (reviews, critiques, classifiers), as one run tree. */
  stats: RunStats;
  /** The council's own run, the parent every reviewer's sub-run hangs under in traces. */
  runId: string;
}
