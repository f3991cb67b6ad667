import { microToUsd } from "@x/llm-types";
import type { Tally } from "./gsm8k-replay";

/** `mean ± sd (min–max)` of percentages, one decimal. */
export function spread(values: readonly number[]): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / Math.max(1, values.length - 1));
  return (
    `${mean.toFixed(1)} % ± ${sd.toFixed(1)} ` +
    `(${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} %)`
  );
}

/**
 * The teacher's spend per escalation against what a bare teacher call costs on the same questions
 * (the teacher-only run's cost for exactly the escalated ones).
 */
export function escalationCost(tally: Tally, teacherOnly: Tally): string {
  if (tally.escalated === 0) return "no escalations";
  const bare = tally.perItem.reduce((sum, p, i) => sum + (p.escalated ? teacherOnly.perItem[i]!.micro : 0), 0);
  const each = microToUsd(tally.teacherMicro) / tally.escalated;
  const bareEach = microToUsd(bare) / tally.escalated;
  return (
    `$${each.toFixed(4)} per escalation vs $${bareEach.toFixed(4)} ` +
    `for a bare GPT-4 answer (${(each / bareEach).toFixed(2)}×)`
  );
}

/** Shares of a run's whole cost: the student's own calls, the helper's, the teacher's input and output. */
export function moneySplit(tally: Tally): string {
  const whole = tally.studentMicro + tally.teacherMicro;
  const share = (micro: number) => `${((100 * micro) / whole).toFixed(1)} %`;
  const { helperMicro, teacherInputMicro, teacherOutputMicro } = tally.spend;
  return (
    `student ${share(tally.studentMicro - helperMicro)}, helper ${share(helperMicro)}, ` +
    `teacher input ${share(teacherInputMicro)}, teacher output ${share(teacherOutputMicro)}`
  );
}
