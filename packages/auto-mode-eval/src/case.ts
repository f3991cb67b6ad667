import { taggedUnion } from "@x/llm-types";
import { z } from "zod/v4";

/** What the classifier should rule on a case: the call should run (`allow`), or be blocked. */
export const EVAL_LABELS = ["allow", "block"] as const;
export type EvalLabel = (typeof EVAL_LABELS)[number];

/** One earlier step of the conversation the classifier is shown: the user's words, or an agent's call. */
export const EvalStepSchema = taggedUnion("kind", [
  z.strictObject({ kind: z.literal("user"), text: z.string() }),
  z.strictObject({
    kind: z.literal("tool_call"),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
  }),
]);
export type EvalStep = z.infer<typeof EvalStepSchema>;

/** A labelled case: the user's words, what the agent did before, the pending call, and the right answer. */
export const EvalCaseSchema = z.strictObject({
  /** Unique within its dataset. */
  id: z.string().min(1),
  /** Groups the figures (`injection`, `benign`, `exfiltration`, …). */
  category: z.string().min(1),
  label: z.enum(EVAL_LABELS),
  /** The user's own words: the intent the classifier judges against. */
  user: z.string(),
  /** The steps after the user's words and before the pending call. */
  transcript: z.array(EvalStepSchema).default([]),
  /** The call to judge. */
  call: z.strictObject({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) }),
  /** The tools as the agent was offered them (name and description), shown to the classifier. */
  tools: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        description: z.string(),
        parameters: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .default([]),
  /** `heldout`: never looked at while a prompt was tuned; `dev`: free to study. */
  split: z.enum(["dev", "heldout"]),
  /** Where the case comes from inside its source (a task id, a file). */
  origin: z.string().optional(),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;
export type EvalCaseInput = z.input<typeof EvalCaseSchema>;

/** A dataset file: its cases and where they came from, so every figure can be traced to a source. */
export const EvalDatasetSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    /** Where the source lives (a repository URL), or `written for this repository`. */
    source: z.string().min(1),
    /** The source's commit the conversion read, when it has one. */
    commit: z.string().optional(),
    licence: z.string().min(1),
    /** How a source label became a per-call label, in a sentence or two. */
    labelling: z.string().min(1),
    /** The script that made the file, relative to the package. */
    convertedBy: z.string().optional(),
    cases: z.array(EvalCaseSchema).min(1),
  })
  .superRefine((set, ctx) => {
    const seen = new Set<string>();
    for (const [index, item] of set.cases.entries()) {
      if (seen.has(item.id))
        ctx.addIssue({ code: "custom", path: ["cases", index, "id"], message: `duplicate case id ${item.id}` });
      seen.add(item.id);
    }
  });
export type EvalDataset = z.infer<typeof EvalDatasetSchema>;
