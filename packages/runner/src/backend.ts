// What a host needs to build its own park ledger or checkpoint store: the ledger contract and its
// answers, the checkpoint a sink receives, and the schemas and version stamps of the stored values.
// A user of `createRunner` needs none of it; the ready ledgers are on the main entry.
export type { ParkClaim, ParkLedger } from "./vocabulary/park-ledger";
export {
  RunCheckpointSchema,
  RUN_CHECKPOINT_KIND,
  RUN_CHECKPOINT_VERSION,
  type CheckpointSink,
  type RunCheckpoint,
} from "./vocabulary/checkpoint";
export {
  RunCheckpointSegmentSchema,
  RUN_CHECKPOINT_SEGMENT_KIND,
  RUN_CHECKPOINT_SEGMENT_VERSION,
  type CheckpointSegmentSink,
  type RunCheckpointSegment,
} from "./vocabulary/checkpoint-segment";
export { ParkedRunSchema, PARKED_RUN_KIND, PARKED_RUN_VERSION, type PendingCall } from "./vocabulary/park-schema";
