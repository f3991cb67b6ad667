import { assistantText, type AssistantMessage } from "@x/llm-types";
import { isAborted, isLengthEmpty } from "@x/terminal-cause";
import { ClassifierLegError } from "./errors";
import { readClassifierVerdict } from "./verdict";

/** The reply's answer text: every text block joined. Thinking blocks are never the verdict. */
export function classifierReplyText(reply: AssistantMessage): string {
  return assistantText(reply);
}

/**
 * An EMPTY reply stopped by the output cap — in either form a brain reports it: `length` (a cap the
 * engine shrank) or `error` with `errorKind: "length_empty"` (a static cap). Not a refusal and not a
 * verdict: the model used its room thinking, so it is asked again with more. An empty reply with
 * any other stop is a refusal to answer and is not re-asked.
 */
export function classifierReplyEmptyAtCap(reply: AssistantMessage): boolean {
  if (classifierReplyText(reply).trim() !== "") return false;
  return reply.stopReason === "length" || (reply.stopReason === "error" && isLengthEmpty(reply));
}

/**
 * A reply whose text is not a complete answer of its own: cut by the cap (`length`, or an `error`
 * stop — the only one that reaches the reader is the `length_empty` cap cut), by a dropped or
 * stalled stream (`partialFinalized`), or one that called a tool (`toolUse`, or a tool-call block —
 * the classifier is offered no tools). Any `errorKind` at all also counts: it is the brain's typed
 * word for a cut, and a brain that stamps it without `partialFinalized` must not turn a fragment
 * into a whole answer. Its text is a prefix or a fragment, so it may carry a verdict through a
 * `<block>yes` tag only — it never allows, not even on a closed `<block>no</block>` (what followed
 * is unknown); the bare-answer arm never sees it.
 */
export function classifierReplyTagOnly(reply: AssistantMessage): boolean {
  return (
    reply.stopReason === "length" ||
    reply.stopReason === "error" ||
    reply.errorKind !== undefined ||
    reply.partialFinalized === true ||
    reply.stopReason === "toolUse" ||
    reply.content.some((block) => block.type === "toolCall")
  );
}

/**
 * The text the decider reads its verdict from: the answer text, except that a tag-only reply
 * carrying no tagged answer reads as EMPTY, so a cut "No" can never reach the bare-answer arm.
 * The judgement is the reader's own (read as a cut reply), so "no tagged verdict" cannot drift from
 * "no verdict". Only the missing form is emptied: a cut reply holding a CONFLICT keeps its text, so
 * the conflict is recorded and not re-asked into an allow.
 */
export function classifierReplyVerdictText(reply: AssistantMessage): string {
  const text = classifierReplyText(reply);
  if (!classifierReplyTagOnly(reply)) return text;
  const read = readClassifierVerdict(text, { complete: false });
  return read.kind === "parse_error" && read.form === "missing" ? "" : text;
}

/**
 * Whether a first attempt is asked once more, on the think seat. One rule: the verdict is MISSING —
 * empty at the cap, cut or fragmentary with no tagged answer, or text in which the reader finds no
 * answer (prose, a reply that only thought). Never a conflict (it carries a `yes` that a second answer must not
 * erase) and never an empty reply with an ordinary stop (a refusal). Failures are judged first by
 * {@link classifierReplyFailure} and never reach this.
 */
export function classifierReplyAsksAgain(reply: AssistantMessage): boolean {
  if (classifierReplyEmptyAtCap(reply)) return true;
  // A cut reply's verdict text is emptied exactly when it holds no tagged answer.
  if (classifierReplyTagOnly(reply)) return classifierReplyVerdictText(reply) === "";
  const text = classifierReplyText(reply);
  // Nothing at all with an ordinary stop is a refusal; thinking with no answer after it is not.
  if (text.trim() === "") return reply.content.some((block) => block.type === "thinking");
  const read = readClassifierVerdict(text, { complete: true });
  return read.kind === "parse_error" && read.form === "missing";
}

/**
 * A reply that is a failure of the call rather than an answer: a provider error returned as a
 * message (`stopReason: "error"`, HTTP 4xx/5xx, quota, overload) or a cancelled request
 * (`aborted`). Reading either as text would blame the model's format for a model that never
 * answered. The cap-cut form (`length_empty`) is not a failure: it is the empty reply the re-ask owns.
 */
export function classifierReplyFailure(reply: AssistantMessage): Error | undefined {
  if (isAborted(reply)) {
    return new ClassifierLegError(
      reply.errorKind === "timeout" ? "timeout" : "error",
      describeFailure(reply, "the classifier request was aborted"),
      reply.errorKind ?? "aborted",
    );
  }
  if (reply.stopReason !== "error" || isLengthEmpty(reply)) return undefined;
  return new ClassifierLegError(
    reply.errorKind === "timeout" ? "timeout" : "error",
    describeFailure(reply, "the classifier request failed"),
    reply.errorKind,
  );
}

function describeFailure(reply: AssistantMessage, lead: string): string {
  const kind = reply.errorKind ? ` (${reply.errorKind})` : "";
  const detail = reply.errorMessage ? `: ${reply.errorMessage}` : "";
  return `${lead}${kind}${detail}`;
}
