/** What the evaluation ruled on one case, and what it cost. */
export interface CaseResult {
  /** `<dataset>/<case id>`. */
  key: string;
  dataset: string;
  category: string;
  label: "allow" | "block";
  split: "dev" | "heldout";
  /** The decider's verdict, or the rule's. */
  verdict: "allow" | "block" | "unavailable" | "parse_error";
  /** What auto mode does with it on its own: only `allow` runs; every other verdict fails closed. */
  decided: "allow" | "block";
  source: "rule" | "classifier";
  ruleId?: string;
  reason?: string;
  /** The classifier model that ruled (the last rung asked). */
  model?: string;
  fallback: boolean;
  reasked: boolean;
  calls: number;
  costMicroUsd: number;
  wallMs: number;
}
