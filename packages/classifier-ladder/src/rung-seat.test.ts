import { describe, expect, it } from "vitest";
import { model } from "../test/fixtures";
import {
  CLASSIFIER_LOW_SEAT,
  CLASSIFIER_OFF_SEAT,
  CLASSIFIER_THINK_SEAT,
  CLASSIFIER_VERDICT_TOKENS,
  classifierRungSeat,
  thinkingOffSpelled,
} from "./rung-seat";
import { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";

describe("classifierRungSeat", () => {
  it("puts a reasoning model whose wire spells off on the off seat, with a verdict-sized cap", () => {
    expect(classifierRungSeat(model("r", { reasoning: true, thinkingOff: true }))).toBe(CLASSIFIER_OFF_SEAT);
    expect(CLASSIFIER_OFF_SEAT).toEqual({ reasoning: "off", maxTokens: CLASSIFIER_VERDICT_TOKENS });
  });

  it("puts every other model on the low seat: the verdict cap plus a low allowance", () => {
    expect(classifierRungSeat(model("r", { reasoning: true, thinkingOff: false }))).toBe(CLASSIFIER_LOW_SEAT);
    // Declaring no reasoning is no promise the gateway will not think.
    expect(classifierRungSeat(model("plain", { reasoning: false }))).toBe(CLASSIFIER_LOW_SEAT);
    expect(CLASSIFIER_LOW_SEAT.reasoning).toBe("low");
    expect(CLASSIFIER_LOW_SEAT.maxTokens).toBeGreaterThan(CLASSIFIER_VERDICT_TOKENS);
  });

  it("gives the re-ask seat more room than either first seat", () => {
    expect(CLASSIFIER_THINK_SEAT.reasoning).toBe("low");
    expect(CLASSIFIER_THINK_SEAT.maxTokens).toBeGreaterThan(CLASSIFIER_LOW_SEAT.maxTokens);
    expect(thinkingOffSpelled({ reasoning: false, thinkingOff: true })).toBe(false);
  });

  it("classifier.budget_is_room — the seats are plain request room, with no bound the engine could enforce", () => {
    for (const seat of [CLASSIFIER_OFF_SEAT, CLASSIFIER_LOW_SEAT, CLASSIFIER_THINK_SEAT]) {
      expect(Object.keys(seat).sort()).toEqual(["maxTokens", "reasoning"]);
      expect(Object.isFrozen(seat)).toBe(true);
    }
  });
});

describe("CLASSIFIER_ATTEMPT_SUFFIX", () => {
  it("first: begin with <block>, no preamble, err toward blocking; re-ask: think in <thinking> first", () => {
    expect(CLASSIFIER_ATTEMPT_SUFFIX.first.startsWith("\n")).toBe(true);
    expect(CLASSIFIER_ATTEMPT_SUFFIX.first).toMatch(/<block>/);
    expect(CLASSIFIER_ATTEMPT_SUFFIX.first).toMatch(/block/i);
    expect(CLASSIFIER_ATTEMPT_SUFFIX.reask.startsWith("\n")).toBe(true);
    expect(CLASSIFIER_ATTEMPT_SUFFIX.reask).toMatch(/<thinking>/);
    expect(CLASSIFIER_ATTEMPT_SUFFIX.reask.indexOf("<thinking>")).toBeLessThan(
      CLASSIFIER_ATTEMPT_SUFFIX.reask.lastIndexOf("<block>"),
    );
  });
});
