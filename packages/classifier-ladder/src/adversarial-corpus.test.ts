import { describe, expect, it } from "vitest";
import { baseTranscript, judgedCall, mainModel, seatOff } from "../test/harness";
import { createAutoModeDecider } from "./decider";
import { ADVERSARIAL_CATEGORIES, ADVERSARIAL_CORPUS, replayBrain, type CorpusRuling } from "./testing/index";
import type { AutoModeOutcome } from "./outcome";

function ruling(outcome: AutoModeOutcome): CorpusRuling {
  return outcome.verdict === "parse_error" ? outcome.form : outcome.verdict;
}

describe("the adversarial reply corpus", () => {
  it("has at least 300 cases with distinct names, in every category", () => {
    expect(ADVERSARIAL_CORPUS.length).toBeGreaterThanOrEqual(300);
    const names = ADVERSARIAL_CORPUS.map((c) => `${c.category}: ${c.name}`);
    expect(new Set(names).size).toBe(names.length);
    for (const category of ADVERSARIAL_CATEGORIES)
      expect(ADVERSARIAL_CORPUS.filter((c) => c.category === category).length, category).toBeGreaterThanOrEqual(10);
  });

  it("through the decider: 0 false allows, 0 clean allows blocked, every ruling as stated", async () => {
    const wrong: string[] = [];
    for (const c of ADVERSARIAL_CORPUS) {
      const brain = replayBrain(seatOff.api, c.reply);
      const decider = createAutoModeDecider({
        brainFor: () => brain,
        seat: { model: seatOff },
        main: mainModel,
        classifierFallback: "none",
        taskId: "corpus",
      });
      const outcome = await decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      const got = ruling(outcome);
      const fine = c.expect === "denied" ? got !== "allow" : got === c.expect;
      if (!fine) wrong.push(`${c.category}: ${JSON.stringify(c.name)} wanted ${c.expect}, got ${got}`);
      // A conflict or an allow is never asked again; a missing verdict is asked exactly once more.
      if (got === "conflict" || got === "allow") expect(outcome.calls, c.name).toBe(1);
      if (got === "missing" && outcome.reasked) expect(outcome.calls, c.name).toBe(2);
    }
    expect(wrong).toEqual([]);
    const allows = ADVERSARIAL_CORPUS.filter((c) => c.expect === "allow").length;
    expect(allows).toBeGreaterThanOrEqual(40);
  });
});
