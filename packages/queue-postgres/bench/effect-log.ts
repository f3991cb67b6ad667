import { readFileSync } from "node:fs";

/** What the effect log says happened, counted by idempotency key (`taskId:toolCallId`). */
export interface EffectCount {
  byKey: Map<string, number>;
  /** Approved `deploy` calls the log shows more than once: the number the queue promises is 0. */
  doubleExecutedApproved: number;
  /** Tasks that completed past their approved deploy, but the log never saw the deploy: a lost call. */
  missingApproved: number;
  /** `step` calls run again after a crash (the turn in flight when its worker died). */
  stepReruns: number;
}

/** Reads the log the tools appended to; `approvedKeys` are the deploy calls whose tasks completed. */
export function readEffects(path: string, approvedKeys: readonly string[] = []): EffectCount {
  const byKey = new Map<string, number>();
  let doubleExecutedApproved = 0;
  let stepReruns = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line === "") continue;
    const [key, name] = line.split("\t") as [string, string];
    const seen = (byKey.get(key) ?? 0) + 1;
    byKey.set(key, seen);
    if (seen === 2 && name.startsWith("deploy")) doubleExecutedApproved += 1;
    if (seen > 1 && name.startsWith("step")) stepReruns += 1;
  }
  const missingApproved = approvedKeys.filter((key) => !byKey.has(key)).length;
  return { byKey, doubleExecutedApproved, missingApproved, stepReruns };
}
