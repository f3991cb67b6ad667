import type { ResolvedCompaction } from "../vocabulary/compaction-options";
import type { TaskModel } from "../vocabulary/task-model";

/** Share of a model's usable window one tool result may fill as the model sees it. */
const RESULT_SHARE = 0.25;
/** Characters per token, as the runner's own estimate counts them. */
export const CHARS_PER_TOKEN = 4;
/** The smallest cap the options themselves accept. */
const MIN_CAP = 200;

/**
 * Fitted options per runner options and cap: a history's view is derived once per options object,
 * so every run on the same window must get the same object back, not an equal copy.
 */
const fitted = new WeakMap<ResolvedCompaction, Map<number, ResolvedCompaction>>();

/**
 * The runner's compaction options with the tool-result cap fitted to the run's window: the tighter
 * of the configured cap (per tool, or the default) and a quarter of the smallest usable window along
 * the run's model chain. A 2 MB result is then cut to what a small window can hold next to the
 * rest, instead of the default 40 000 characters (10k tokens) filling an 8k window by itself.
 */
export function fitToWindow(
  options: ResolvedCompaction | undefined,
  taskModel: TaskModel,
  maxTokens: number | undefined,
): ResolvedCompaction | undefined {
  if (!options) return undefined;
  const usable = Math.min(
    ...[taskModel.model, ...taskModel.fallbacks].map(
      (model) => model.contextWindow - Math.min(maxTokens ?? model.maxTokens, model.maxTokens),
    ),
  );
  const cap = Math.max(MIN_CAP, Math.floor(usable * RESULT_SHARE * CHARS_PER_TOKEN));
  const byTool = Object.values(options.toolResultMaxCharsByTool);
  if (options.toolResultMaxChars <= cap && byTool.every((chars) => chars <= cap)) return options;
  let forOptions = fitted.get(options);
  if (!forOptions) fitted.set(options, (forOptions = new Map()));
  let made = forOptions.get(cap);
  if (!made) {
    made = {
      ...options,
      toolResultMaxChars: Math.min(options.toolResultMaxChars, cap),
      toolResultMaxCharsByTool: Object.fromEntries(
        Object.entries(options.toolResultMaxCharsByTool).map(([name, chars]) => [name, Math.min(chars, cap)]),
      ),
    };
    forOptions.set(cap, made);
  }
  return made;
}
