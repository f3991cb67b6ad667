import type { Runner, TaskResult, TaskSpec } from "@x/runner";
import { runWithTeacher, type TeacherRunResult } from "@x/teacher";
import type { AppEvent } from "./render/events";
import { reportingRetries } from "./retry-report";
import type { Runtime } from "./runtime";
import { openStrategyStore } from "./store";

export interface TeacherSetup {
  /** SQLite path or postgres:// URL, opened for this run and closed after it. */
  storeTarget: string;
  scope: string;
}

/**
 * Runs one task: in teacher mode (student, escalation to the teacher, strategy memory in the
 * store under `scope`) when `teacher` is given, else on the runner alone. A teacher-mode run
 * reports the strategies it was given and the one it stored when it ends.
 */
export async function executeTask(
  runtime: Runtime,
  spec: TaskSpec,
  emit: (event: AppEvent) => void,
  teacher: TeacherSetup | undefined,
  signal?: AbortSignal,
): Promise<TaskResult | TeacherRunResult> {
  const observed: TaskSpec = { ...spec, onToolResult: runtime.observer.onToolResult };
  const maxRetries = runtime.deps.retry?.maxRetries ?? 2;
  const runner = reportingRetries(signal ? withSignal(runtime.runner, signal) : runtime.runner, emit, maxRetries);
  if (!teacher) return runner.runTask(observed);
  const { store, describe } = await openStrategyStore(teacher.storeTarget);
  emit({ type: "note", text: `strategy store: ${describe}, scope "${teacher.scope}"` });
  try {
    const result = await runWithTeacher(runner, observed, {
      model: runtime.roleModels.teacher,
      strategyStore: store,
      scope: teacher.scope,
      onEscalation: (e) => {
        const event: AppEvent = {
          type: "escalation",
          attempt: e.attempt,
          trigger: e.trigger,
          confidence: e.teacher.confidence,
          takeover: e.tookOver,
        };
        if (e.teacher.correction !== undefined) event.correction = e.teacher.correction;
        if (e.teacher.strategy !== undefined) event.strategy = e.teacher.strategy;
        if (e.teacher.nextStep !== undefined) event.nextStep = e.teacher.nextStep;
        emit(event);
      },
    });
    const { recalled, stored } = result.strategies;
    emit({ type: "strategies_retrieved", scope: teacher.scope, query: spec.objective, hits: recalled });
    if (stored) emit({ type: "strategy_stored", scope: teacher.scope, ...stored });
    return result;
  } finally {
    await store.close();
  }
}

/**
 * The runner with `signal` on every task it runs: teacher mode runs the student, the helpers and
 * the teacher as separate tasks, and an abort must end whichever one is running.
 */
function withSignal(runner: Runner, signal: AbortSignal): Runner {
  return {
    ...runner,
    runTask: (spec, options) => runner.runTask(spec, { signal, ...options }),
    streamTask: (spec, options) => runner.streamTask(spec, { signal, ...options }),
  };
}
