import { describe, expect, it } from "vitest";
import { numericAnswerChecks, NUMERIC_CHECKS, TeacherError } from "./index";
import { numericFindings } from "./numeric-answer-checks";

// Recorded student texts: Mixtral-8x7B's answers to GSM8K test questions, as RouteLLM's CSV holds them
// (bench/data/routellm-gsm8k; the number is the CSV row's index). Each is wrong by the CSV unless noted.
const recorded = {
  arithmetic: {
    index: 485,
    task:
      "Jillian's handbag cost $20 less than 3 times as much as her shoes cost. If her shoes cost " +
      "$80, how much did her bag cost?",
    output: " Jillian's handbag cost 3 * 80 - 20 = $<<3*80-20=230>>230.\n\n#### 230\n\n",
  },
  finalLine: {
    index: 660,
    task:
      "Lee rears only sheep and geese on his farm.  If the total number of animal legs is 70, and " +
      "the total number of animal heads is 20, how many sheep live on Lee's farm?",
    output:
      " Sheep have 4 legs and geese have 2. If there are 70 legs in total, then there must be 70 - 20 = 50 legs " +
      "from the sheep (since there are 20 geese). Each sheep has 4 legs, so there are 50 / 4 = 12.5 sheep. " +
      "However, sheep come in whole numbers, so there must be a mistake in the problem and it's impossible for " +
      "the numbers to be correct.\n#### \n\n",
  },
  lastResult: {
    index: 742,
    task:
      "In a certain school, two classes have a total of 80 students. Each class has the same amount " +
      "of students, and in each class 40% of the students are girls. How many boys are in each class?",
    // Cut off mid-annotation in the recording.
    output:
      " There are 80 / 2 = <<80/2=40>>40 students in each class.\nIn each class, there are 40 / 100 \\* 40 = <<40/1",
  },
  counting: {
    index: 1173,
    task:
      "A regular box of 100 dishwasher pods costs $12. There's currently a special size box for the " +
      "same price that has 20% more pods. How many dishwashing cycles with the new box can you run " +
      "for $1 if you use 1 pod per cycle?",
    output:
      " The special box has 100 + 100 * 20/100 = <<100+100*20/100=120>>120 pods.\nWith this box, you can run 120 " +
      "cycles because you use 1 pod per cycle.\nSince the box costs $12, then the cost per cycle is 12 / 120 = " +
      "$<<12/120=0.1>>0.1.\nTherefore, you can run 1 cycle for $0.1.\n#### 0.1\n\n",
  },
  hedging: {
    index: 141,
    task:
      "There are 700 bees in a hive. There are twice as many worker bees as baby bees, and there " +
      "are twice as many babies as queens.  How many worker bees are there?",
    output:
      " There are 700 bees in total. If we assume that there are Q queens, B baby bees, and W worker bees, " +
      "we can create two equations based on the problem statement:\n\n1) B = 2Q\n2) W = 2B\n\nWe also know " +
      "that the total number of bees is 700, so we have a third equation:\n\n3) Q + B + W = 700\n\nNow, we " +
      "can substitute equations (1) and (2) into equation (3):\n\nQ + 2Q + 2(2Q) = 700\n\nCombining the terms " +
      "on the left side, we get:\n\n5Q = 700\n\nNow, we can solve for Q:\n\nQ = 700 / 5\nQ = 140\n\nNow, we can " +
      "find the number of baby bees using equation (1):\n\nB = 2Q\nB = 2 * 140\nB = 280\n\nFinally, we can find " +
      "the number of worker bees using equation (2):\n\nW = 2B\nW = 2 * 280\nW = 560\n\nSo, there are 560 worker " +
      "bees in the hive.",
  },
  unused: {
    index: 975,
    task:
      "Richard, Jerry, and Robert are going to share 60 cherries. If Robert has 30 cherries, and " +
      "has 10 more than Richard, how many more cherries does Robert have than Jerry?",
    output: " Robert has 30 - 10 = <<30-1",
  },
  // Right by the CSV, and clean: no signal fires.
  right: {
    index: 497,
    task:
      "Paul is driving a car twice a day: in the morning, and in the afternoon. He did that for 14 " +
      "days. Each morning ride cost him about $6, and each afternoon ride, about $2. How much money " +
      "did he spend on driving his car during these two weeks?",
    output: " Paul spent 14 x ($6 + $2) = 14 x $8 = $<<14*8=112>>112.\n#### 112\n\n",
  },
  // Wrong (the reference is 42), yet every step is sound arithmetic: code cannot tell.
  cleanWrong: {
    index: 949,
    task: "Marcus is half of Leo’s age and five years younger than Deanna. Deanna is 26. How old is Leo?",
    output: " Leo is 26 * 2 = <<26*2=52>>52 / 2 = <<26*2/2=26>>26 years old.\n#### 26",
  },
};

describe("numericAnswerChecks on recorded student answers", () => {
  const verify = numericAnswerChecks();

  it("arithmetic: re-computes each a op b = c step and <<a*b=c>> annotation", () => {
    expect(verify(recorded.arithmetic)).toEqual({ pass: false, reason: "the step 3*80-20 = 230 is wrong: it is 220" });
  });

  it("final-line: a final line (#### here) that states no number", () => {
    const only = numericAnswerChecks({ checks: ["final-line"] });
    expect(only(recorded.finalLine)).toEqual({ pass: false, reason: "the final line states no number" });
  });

  it("last-result: the final answer is not the last computed result (a cut-off answer)", () => {
    expect(verify(recorded.lastResult)).toEqual({
      pass: false,
      reason: "the final answer 1 is not the last computed result 40",
    });
  });

  it("counting: a fractional answer to a question that counts things", () => {
    expect(verify(recorded.counting)).toEqual({
      pass: false,
      reason: "the question counts things, and 0.1 is not a whole number",
    });
  });

  it("hedging: the answer rests on an assumption of its own", () => {
    expect(verify(recorded.hedging)).toEqual({ pass: false, reason: 'the answer hedges ("assume that")' });
  });

  it("unused-quantities (off by default): a quantity of the question the answer never uses", () => {
    expect(verify(recorded.unused)).toBeUndefined();
    const withUnused = numericAnswerChecks({ checks: ["unused-quantities"] });
    expect(withUnused(recorded.unused)).toEqual({
      pass: false,
      reason: "quantities in the question are never used: 60",
    });
  });

  it("undefined — cannot tell — for a clean right answer and for a clean wrong one", () => {
    expect(verify(recorded.right)).toBeUndefined();
    expect(verify(recorded.cleanWrong)).toBeUndefined();
    expect(Object.values(numericFindings(recorded.cleanWrong.task, recorded.cleanWrong.output))).toEqual(
      NUMERIC_CHECKS.map(() => undefined),
    );
  });

  it("reads markdown-escaped and LaTeX operators, and allows the rounding a result's decimals show", () => {
    const task = "How much does each of 3 friends pay for a $20 pizza?";
    expect(verify({ task, output: "Each pays 20 \\div 3 = 6.67 dollars.\n#### 6.67" })).toBeUndefined();
    expect(verify({ task, output: "Each pays 20 \\times 3 = 6.67 dollars.\n#### 6.67" })).toEqual({
      pass: false,
      reason: "the step 20 × 3 = 6.67 is wrong: it is 60",
    });
  });

  it("an unknown check is a typed config error", () => {
    expect(() => numericAnswerChecks({ checks: ["spelling" as never] })).toThrow(TeacherError);
  });
});
