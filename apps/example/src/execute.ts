import type { TaskResult, TaskSpec } from "@x/runner";
import { runWithTeacher, type TeacherRunResult } from "@x/teacher";
import type { AppEvent } from "./render/events";
import type { Runtime } from "./runtime";
import { observedStore, openStrategyStore, type MemoryTally } from "./store";

export interface TeacherSetup {
  /** SQLite path or postgres:// URL, opened for this run and closed after it. */
  storeTarget: string;
  scope: string;
}

/**
 * Runs one task: in teacher mode (student, escalation to the teacher, strategy memory in the
 * store under `scope`) when `teacher` is given, else on the runner alone.
 */
export async function executeTask(
  runtime: Runtime,
  spec: TaskSpec,
  emit: (event: AppEvent) => void,
  teacher: TeacherSetup | undefined,
): Promise<{ result: TaskResult | TeacherRunResult; memory: MemoryTally }> {
  const memory: MemoryTally = { used: 0, stored: 0 };
  const observed: TaskSpec = { ...spec, onToolResult: runtime.observer.onToolResult };
  if (!teacher) return { result: await runtime.runner.runTask(observed), memory };
  const { store, describe } = await openStrategyStore(teacher.storeTarget);
  emit({ type: "note", text: `strategy store: ${describe}, scope "${teacher.scope}"` });
  try {
    const result = await runWithTeacher(runtime.runner, observed, {
      model: runtime.seats.teacher,
      strategyStore: observedStore(store, emit, memory),
      scope: teacher.scope,
      onEscalation: (e) => {
        const event: AppEvent = { type: "escalation", attempt: e.attempt, trigger: e.trigger, confidence: e.teacher.confidence, takeover: e.tookOver };
        if (e.teacher.correction !== undefined) event.correction = e.teacher.correction;
        if (e.teacher.strategy !== undefined) event.strategy = e.teacher.strategy;
        if (e.teacher.nextStep !== undefined) event.nextStep = e.teacher.nextStep;
        emit(event);
      },
    });
    return { result, memory };
  } finally {
    await store.close();
  }
}
