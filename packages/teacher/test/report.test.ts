import { describe, expect, it } from "vitest";
import type { Tally } from "../bench/gsm8k-replay";
import { escalationCost, moneySplit, spread } from "../bench/report";

const tally = (perItem: Tally["perItem"], teacherMicro: number): Tally => ({
  correct: 0,
  studentMicro: 0,
  teacherMicro,
  studentTokens: 0,
  teacherTokens: 0,
  escalated: perItem.filter((p) => p.escalated).length,
  teacherCalls: 0,
  escalatedWrong: 0,
  unverified: 0,
  unverifiedRight: 0,
  spend: { adviceMicro: 0, takeoverMicro: 0, teacherInputMicro: 0, teacherOutputMicro: 0, helperMicro: 0 },
  perItem,
});

describe("bench report helpers", () => {
  it("spread gives mean, sample standard deviation and range", () => {
    expect(spread([90, 92, 94])).toBe("92.0 % ± 2.0 (90.0–94.0 %)");
  });
  it("escalationCost compares with the bare answers to exactly the escalated questions", () => {
    const bare = tally(
      [
        { micro: 4000, correct: true, escalated: false },
        { micro: 8000, correct: true, escalated: false },
      ],
      12000,
    );
    const run = tally(
      [
        { micro: 1, correct: true, escalated: false },
        { micro: 16000, correct: true, escalated: true },
      ],
      16000,
    );
    expect(escalationCost(run, bare)).toBe("$0.0160 per escalation vs $0.0080 for a bare GPT-4 answer (2.00×)");
    expect(escalationCost(tally([], 0), bare)).toBe("no escalations");
  });
  it("moneySplit takes the helper out of the student side and splits the teacher by direction", () => {
    const run = { ...tally([], 800), studentMicro: 200 };
    run.spend = {
      adviceMicro: 0,
      takeoverMicro: 800,
      teacherInputMicro: 300,
      teacherOutputMicro: 500,
      helperMicro: 50,
    };
    expect(moneySplit(run)).toBe("student 15.0 %, helper 5.0 %, teacher input 30.0 %, teacher output 50.0 %");
  });
});
