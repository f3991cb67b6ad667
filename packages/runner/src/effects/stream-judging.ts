import { estimateContextTokens } from "@x/brain-kit";
import { usageFor, type Context, type Model, type ToolCall } from "@x/llm-types";
import { runBudgetExceeded } from "../decisions/budget";
import { effectivePermission } from "../decisions/permission";
import { ruleDenial } from "../decisions/auto-mode-rules";
import { isWithheld } from "../decisions/tool-grant";
import type { RunContext } from "../state/run-context";
import { checkCall } from "./tools";

/**
 * What the model call does with each tool call whose arguments the stream has completed: an `auto`
 * call goes to the run's classifier at once (`AutoModeGate.prejudge`), while the model streams on.
 * Undefined when the run has no auto mode or no tool that could be `auto`: the stream is then read
 * only when someone listens. A call the gate will not classify (invalid, withheld, denied by a rule,
 * another permission) is left to the gate.
 */
export function streamJudge(
  ctx: RunContext,
  model: Model,
  request: Context,
  maxTokens: number,
): ((call: ToolCall) => void) | undefined {
  const gate = ctx.autoMode;
  if (!gate || !ctx.tools.some((tool) => effectivePermission(ctx, tool) === "auto")) return undefined;
  const streamed: ToolCall[] = [];
  let affordable: boolean | undefined;
  return (call) => {
    const check = checkCall(ctx.tools, call, ctx.deps.clock.now(), (name) => isWithheld(ctx, name));
    const gated = check.ok && effectivePermission(ctx, check.tool) === "auto" && !ruleDenial(ctx, call);
    // The turn's own bill is not in the stats yet: only a budget the whole turn cannot spend (its
    // prompt, a quarter over the estimate, and a full answer) is risked on a classifier call early;
    // otherwise the gate asks after the turn, as the budget then allows.
    affordable ??=
      !hasBudget(ctx) ||
      !runBudgetExceeded(
        ctx,
        usageFor(model, { input: Math.ceil(estimateContextTokens(request) * 1.25), output: maxTokens }),
      );
    if (gated && affordable) gate.prejudge(call, streamed);
    streamed.push(call);
  };
}

/** Whether a budget binds this run or any run above it: without one there is no estimate to make. */
function hasBudget(ctx: RunContext): boolean {
  for (let at: RunContext | undefined = ctx; at; at = at.lineage?.parent) if (at.spec.budget) return true;
  return false;
}
