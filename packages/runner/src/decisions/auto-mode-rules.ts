import type { ToolCall } from "@x/llm-types";
import {
  createAutoModeRuleBook,
  type AutoModeRule,
  type AutoModeRuleBook,
  type AutoModeRuleMatch,
} from "@x/classifier-ladder";
import type { RunContext } from "../state/run-context";

// A spec's rules were checked by the TaskSpec schema on the way in; a run compiles them once.
const books = new WeakMap<readonly AutoModeRule[], AutoModeRuleBook>();

function bookOf(rules: readonly AutoModeRule[] | undefined): AutoModeRuleBook | undefined {
  if (!rules || rules.length === 0) return undefined;
  let book = books.get(rules);
  if (!book) books.set(rules, (book = createAutoModeRuleBook(rules)));
  return book;
}

/** A deny rule that holds for a call, and whose run declared it (this run, or an ancestor). */
export type RuleDenial = AutoModeRuleMatch & { effect: "deny"; runId: string };

/**
 * The first deny rule of this run or of any ancestor, nearest first, that matches the call. A deny
 * declared above holds below, like a `deny` permission: a sub-run cannot shed its parent's rules.
 */
export function ruleDenial(
  ctx: Pick<RunContext, "spec" | "lineage" | "runId">,
  call: ToolCall,
): RuleDenial | undefined {
  for (let at: Pick<RunContext, "spec" | "lineage" | "runId"> | undefined = ctx; at; at = at.lineage?.parent) {
    const match = bookOf(at.spec.autoModeRules)?.judge(call);
    if (match?.effect === "deny") return { ...match, effect: "deny", runId: at.runId };
  }
  return undefined;
}

/**
 * This run's own allow rule for a call, if one holds and no deny of its own does. It only stands in
 * for this run's classifier: an ancestor's rules are read at that ancestor's station.
 */
export function ruleAllowance(
  rules: readonly AutoModeRule[] | undefined,
  call: ToolCall,
): AutoModeRuleMatch | undefined {
  const match = bookOf(rules)?.judge(call);
  return match?.effect === "allow" ? match : undefined;
}
