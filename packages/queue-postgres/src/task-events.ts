/** One row of a task's `task_events`: what a worker tells of it (a take, a turn, a tool result, its end). */
export type TaskEvent = Record<string, unknown>;

/** Events as one statement's parameter: a JSON text each, in order. */
export function eventTexts(events: readonly TaskEvent[]): string[] {
  return events.map((event) => JSON.stringify(event));
}

/**
 * An INSERT of the events in the `json[]` parameter `param`, in their order, for the task row that
 * `source` (a CTE of the same statement with an `id`) yields — none when it yields none, so the
 * events are fenced exactly as the write they ride with.
 */
export function insertEvents(schema: string, source: string, param: string): string {
  return `INSERT INTO ${schema}.task_events (task_id, event)
    SELECT ${source}.id, e.event FROM ${source}, unnest(${param}::json[]) WITH ORDINALITY AS e (event, n)
    ORDER BY e.n`;
}
