import { readFileSync } from "node:fs";

/** What the effect log says happened, by task (a key is `taskId:toolCallId`). */
export interface EffectCount {
  /** `deploy` lines per task id, under any key (the model names its calls anew on every request). */
  deploysByTask: Map<string, number>;
  /** Tasks whose approved `deploy` the log shows more than once: the number the queue promises is 0. */
  doubleExecutedApproved: number;
  /** Tasks that completed past their approved deploy, but the log never saw the deploy: a lost call. */
  missingApproved: number;
  /** `step` calls run again after a crash (the turn in flight when its worker died), by task and step. */
  stepReruns: number;
  /** Of those, re-runs under the first run's idempotency key: the key a tool can deduplicate on. */
  stepRerunsKeptKey: number;
}

/** Reads the log the tools appended to; `approvedTasks` are the deploy tasks that completed. */
export function readEffects(path: string, approvedTasks: readonly string[] = []): EffectCount {
  const deploysByTask = new Map<string, number>();
  let stepReruns = 0;
  let stepRerunsKeptKey = 0;
  // A step is one task's `step n`, whatever key it ran under: a re-run under a new key is still a re-run.
  const firstKeyOfStep = new Map<string, string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line === "") continue;
    const [key, name] = line.split("\t") as [string, string];
    const task = key.slice(0, key.indexOf(":"));
    if (name.startsWith("deploy")) deploysByTask.set(task, (deploysByTask.get(task) ?? 0) + 1);
    if (!name.startsWith("step")) continue;
    const step = `${task}\t${name}`;
    const first = firstKeyOfStep.get(step);
    if (first === undefined) firstKeyOfStep.set(step, key);
    else {
      stepReruns += 1;
      if (first === key) stepRerunsKeptKey += 1;
    }
  }
  const doubleExecutedApproved = [...deploysByTask.values()].filter((n) => n > 1).length;
  const missingApproved = approvedTasks.filter((task) => !deploysByTask.has(task)).length;
  return { deploysByTask, doubleExecutedApproved, missingApproved, stepReruns, stepRerunsKeptKey };
}
