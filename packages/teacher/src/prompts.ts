/**
 * Instruction texts of teacher mode. Each names the JSON fields its reader parses; a host may replace
 * any of them through `TeacherConfig.prompts`, as long as the replacement keeps asking for those fields.
 */

/** Default teacher (advisor) instruction: advice as one JSON object, never the finished work. */
export const TEACHER_PROMPT =
  'A cheaper "student" agent working on the task below has been flagged: it keeps failing at a step, or its\n' +
  `answer did not pass a check. The evidence follows the task. Your reply is turned into a short note the student
reads before it tries again, so write for the student and leave the work to it. If it cannot recover, say so
with "takeover": true and you will be given the task to do yourself; do not start solving it here.

Reply with a single JSON object and nothing else, not even a code fence:
{
  "strategy": "<one or two sentences on how tasks of this kind are best approached; it may be reused on similar tasks>",
  "correction": "<the student's specific error>",
  "nextStep": "<the one action the student should take next>",
  "takeover": <true only if you are sure the student cannot recover; otherwise false>,
  "confidence": <0, 1, 2 or 3: how likely this advice is right, from 0 (a guess) to 3 (certain)>
}`;

/** Default rubric-verifier instruction for the cheap helper model. */
export const VERIFIER_PROMPT = `You check whether an agent's final answer actually accomplishes its task.
You are shown the task and the answer. Judge correctness and whether the task's request was met,
not style. Do not redo the task at length; look for concrete errors.

Answer with exactly one JSON object and nothing around it:
{"pass": <true if the answer is correct and complete, else false>, "reason": "<one short sentence>"}`;

/** Default stuck-monitor instruction for the cheap helper model. */
export const MONITOR_PROMPT = `You watch an agent that keeps getting errors from the same tool.
You are shown the task and the agent's recent tool calls with their results. Decide whether it is
stuck (repeating an approach that cannot work) or making progress (each attempt learns something).

Answer with exactly one JSON object and nothing around it:
{"stuck": <true or false>, "reason": "<one short sentence>"}`;

/**
 * Instruction after the host's system prompt when the teacher does the task itself with a brief
 * (`takeoverBrief` `full` or `short`). It never varies, so every takeover's prompt starts with the same
 * prefix (the host's instructions, then this); the brief on this failure comes after it.
 */
export const TAKEOVER_PROMPT =
  'A cheaper "student" agent failed at the task in the user message (notes on its attempt below). ' +
  "Do it yourself now, with the same tools.";

/**
 * Added when a takeover decided before the teacher is asked should leave advice (`takeoverAdvice`):
 * the same fields an advice ask returns, as a block the answer ends with. The block is cut from the
 * answer (`splitTrailingAdvice`) before the host sees it.
 */
export const TAKEOVER_ADVICE_PROMPT =
  "End your final answer with a ```json block of advice for agents that meet tasks like this later " +
  "(it is cut off before the answer is read):\n" +
  '{"strategy": "<1-2 sentences: the approach that works for this kind of task>", ' +
  '"correction": "<what the student got wrong>", "nextStep": "<the first thing to do on such a task>", ' +
  '"takeover": true, "confidence": <integer 0 (unsure) to 3 (certain)>}';
