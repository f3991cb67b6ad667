import type { VerdictInfo } from "../vocabulary/events";

/** Who ruled, in words: the rule, or the classifier with its model, station and attempt. */
export function verdictAuthor(info: VerdictInfo): string {
  const where = info.station === "ancestor" ? ` of ancestor run ${info.ancestorRunId ?? "?"}` : "";
  const reused = info.source === "reused" ? "; reused from the identical call earlier in this run" : "";
  if (info.ruleId !== undefined) return `host rule ${info.ruleId}${where}${reused}`;
  const model = info.model !== undefined ? ` ${info.model}` : "";
  const attempt = info.attempt !== undefined ? `, attempt ${info.attempt}` : "";
  return `classifier${model}${where} (${info.station} station${attempt})${reused}`;
}

/**
 * One line that explains a verdict — what ruled, on which call, and why — the same words on the
 * notice, the CLI and wherever a host shows it.
 */
export function explainVerdict(toolName: string, info: VerdictInfo): string {
  const why = info.reason !== undefined ? `: ${info.reason}` : "";
  switch (info.verdict) {
    case "block":
      return `Auto mode blocked ${toolName}${why} — ${verdictAuthor(info)}.`;
    case "allow":
      return `Auto mode allowed ${toolName} — ${verdictAuthor(info)}.`;
    case "unavailable":
      return `Auto mode could not rule on ${toolName} (${info.cause ?? "error"}) — ${verdictAuthor(info)}.`;
    case "parse_error":
      return `Auto mode read no clean verdict for ${toolName} (${info.form ?? "missing"}) — ${verdictAuthor(info)}.`;
  }
}
