/**
 * Which mode suits a task: teacher mode (depth, when an answer can be checked) or a council (breadth, when it cannot).
 */
export type TaskMode = "teacher" | "council";

export interface RouteInput {
  objective: string;
  /** The host can check an answer in code (a test suite, an exact value): teacher mode's verify signal. */
  verifiable?: boolean;
  /** The host's own word, which wins. */
  mode?: TaskMode;
}

export interface RouteDecision {
  mode: TaskMode;
  /** Why, in a sentence a log line can carry. */
  reason: string;
}

/** Open-ended review work: there is no single answer to check, only more or fewer problems found. */
const OPEN_ENDED = new RegExp(
  String.raw`\b(review|audit|find (all|every|any)|look for (bugs|problems|issues)|what('s| is) wrong|critique|` +
    String.raw`security (review|audit)|design review)\b`,
  "i",
);

/**
 * Routes a task to teacher mode or a council. The host's explicit `mode` wins; a task the host can
 * verify goes to teacher mode (its verifier turns escalation into a decidable signal); open-ended
 * review wording goes to a council; anything else to teacher mode, the cheaper default.
 */
export function routeTask(input: RouteInput): RouteDecision {
  if (input.mode) return { mode: input.mode, reason: "the host chose the mode" };
  if (input.verifiable)
    return { mode: "teacher", reason: "the answer can be checked, so a teacher can be asked only when a check fails" };
  if (OPEN_ENDED.test(input.objective))
    return { mode: "council", reason: "open-ended review: no answer to check, breadth and critique find more" };
  return {
    mode: "teacher",
    reason: "a task with an answer: a cheap student, with a teacher only when it is stuck or wrong",
  };
}
