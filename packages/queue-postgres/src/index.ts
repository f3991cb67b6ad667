export {
  createTaskQueue,
  ownScope,
  type EnqueueOptions,
  type TaskEvent,
  type TaskQueue,
  type TaskQueueOptions,
} from "./task-queue";
export { createWorker, type TaskToolsRequest, type Worker, type WorkerOptions } from "./worker";
export type { RunStepOptions, TaskKind, TaskKindTake } from "./task-kind";
export { createPostgresParkLedger, type PostgresParkLedger, type PostgresParkLedgerOptions } from "./pg-park-ledger";
export { QueuedSpecSchema, TASK_STATES, type QueuedSpec, type QueuedTask, type TaskState } from "./queued-task";
export { QueueError, QUEUE_ERROR_CODES, type QueueErrorCode } from "./errors";
export { ensureSchema } from "./sql";
