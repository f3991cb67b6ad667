import type { TaskResult, TaskSpec } from "@x/runner";
import { runWithTeacher, type TeacherRunResult } from "@x/teacher";
import type { AppEvent } from "./render/events";
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
): Promise<TaskResult | TeacherRunResult> {
  const observed: TaskSpec = { ...spec, onToolResult: runtime.observer.onToolResult };
  if (!teacher) return runtime.runner.runTask(observed);
  const { store, describe } = await openStrategyStore(teacher.storeTarget);
  emit({ type: "note", text: `strategy store: ${describe}, scope "${teacher.scope}"` });
  try {
    const result = await runWithTeacher(runtime.runner, observed, {
      model: runtime.seats.teacher,
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
