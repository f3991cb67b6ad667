import { z } from "zod/v4";
import type { Model } from "./model";

const tokens = z.number().int().nonnegative();
const micros = z.number().int().nonnegative();

/** Cost of one call, in integer micro-dollars (1 USD = 1,000,000). Integers sum without drift. */
export const CostSchema = z.strictObject({
  input: micros,
  output: micros,
  cacheRead: micros,
  cacheWrite: micros,
  total: micros,
});
export type Cost = z.infer<typeof CostSchema>;

/** Token counts of one call. `input` excludes cached tokens; `totalTokens` is the sum of all four. */
export const UsageSchema = z.strictObject({
  input: tokens,
  output: tokens,
  cacheRead: tokens,
  cacheWrite: tokens,
  totalTokens: tokens,
  /** Part of `output` spent on reasoning, when the provider reports it. */
  reasoning: tokens.optional(),
  /** True when the counts are the brain's estimate, not the provider's report. */
  estimated: z.boolean().optional(),
  cost: CostSchema,
});
export type Usage = z.infer<typeof UsageSchema>;

export const ZERO_COST: Cost = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { ...ZERO_COST } };
}

/**
 * Price × tokens → micro-dollars. Prices are dollars per million tokens, so the product of a price
 * and a token count already is micro-dollars; each line is rounded once, the total is their sum.
 */
export function computeCost(
  model: Pick<Model, "cost">,
  usage: Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">,
): Cost {
  const line = (price: number, count: number) => Math.round(price * count);
  const input = line(model.cost.input, usage.input);
  const output = line(model.cost.output, usage.output);
  const cacheRead = line(model.cost.cacheRead, usage.cacheRead);
  const cacheWrite = line(model.cost.cacheWrite, usage.cacheWrite);
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** Builds a Usage from raw counts and prices it against the model. */
export function usageFor(
  model: Pick<Model, "cost">,
  counts: {
    input: number;
    output: number;
    cacheRead?: number;
    cacheWrite?: number;
    reasoning?: number;
    estimated?: boolean;
  },
): Usage {
  const { input, output } = counts;
  const cacheRead = counts.cacheRead ?? 0;
  const cacheWrite = counts.cacheWrite ?? 0;
  // Field by field, not `{ ...base, totalTokens }`: on Node 20 a property added after a spread
  // makes a new hidden class on every call (about 1 µs each), and this runs once per turn.
  const usage: Usage = {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: computeCost(model, { input, output, cacheRead, cacheWrite }),
  };
  if (counts.reasoning !== undefined) usage.reasoning = counts.reasoning;
  if (counts.estimated) usage.estimated = true;
  return usage;
}

/** Sums usages (and their micro-dollar costs) exactly. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: {
      input: a.cost.input + b.cost.input,
      output: a.cost.output + b.cost.output,
      cacheRead: a.cost.cacheRead + b.cost.cacheRead,
      cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
      total: a.cost.total + b.cost.total,
    },
  };
  if (a.reasoning !== undefined || b.reasoning !== undefined) sum.reasoning = (a.reasoning ?? 0) + (b.reasoning ?? 0);
  // A total that includes an estimate is an estimate.
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}

/** Micro-dollars → dollars, for display only. */
export function microToUsd(micro: number): number {
  return micro / 1_000_000;
}
