import { fauxText } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { baseTranscript, judgedCall, ladder, requestText } from "../test/harness";
import { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";
import { classifierRequest } from "./transcript";

describe("the classifier's request carries its cache points", () => {
  it("the brain's message has the text and the cache points of classifierRequest, on the re-ask too", async () => {
    const { decider, seatBrain } = ladder({ seatScript: [fauxText("Let me think."), fauxText("<block>no</block>")] });
    const outcome = await decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome.verdict).toBe("allow");
    expect(seatBrain.calls).toHaveLength(2);
    for (const [i, suffix] of [CLASSIFIER_ATTEMPT_SUFFIX.first, CLASSIFIER_ATTEMPT_SUFFIX.reask].entries()) {
      const want = classifierRequest({ toolCall: judgedCall, transcript: baseTranscript, suffix });
      const [message] = seatBrain.calls[i]!.context.messages;
      expect(requestText(seatBrain.calls[i]!)).toBe(want.text);
      expect(message).toMatchObject({ role: "user", provenance: "engine", cachePoints: want.cachePoints });
    }
    // Both attempts repeat one prefix up to the judged call: the re-ask reads what the first wrote.
    const [first, again] = seatBrain.calls.map((call) => call.context.messages[0]!);
    const mark = first!.role === "user" ? first!.cachePoints!.at(-1)! : 0;
    expect(requestText(seatBrain.calls[1]!).slice(0, mark)).toBe(requestText(seatBrain.calls[0]!).slice(0, mark));
    expect(again!.role === "user" && again!.cachePoints).toEqual(first!.role === "user" && first!.cachePoints);
  });
});
