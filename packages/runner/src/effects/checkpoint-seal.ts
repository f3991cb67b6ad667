import { describeIssues, type Message, issuesLine } from "@x/llm-types";
import { timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../vocabulary/canonical-json";
import {
  RUN_CHECKPOINT_KIND,
  RUN_CHECKPOINT_VERSION,
  RunCheckpointSchema,
  type RunCheckpoint,
} from "../vocabulary/checkpoint";
import type { RunSpec, RunState } from "../vocabulary/park-schema";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import { refuseNewerVersion } from "../decisions/stored-version";
import { findTool } from "../decisions/tool-grant";
import type { RunContext } from "../state/run-context";
import { verdictCount } from "../state/stats";
import { appendCheckpointSegment, type CheckpointContents, joinCheckpointSegments } from "./checkpoint-chain";
import { mac, outsideJson } from "./park";
import { signRecord } from "./signed-record";
import { isStopped } from "./stopped-result";

interface CheckpointInput {
  now: number;
  spec: RunSpec;
  // Read only, all of them: the signed checkpoint holds a JSON copy.
  history: readonly Message[];
  messages: readonly Message[];
  state: RunState;
}

export function signCheckpoint(input: CheckpointInput, key: Uint8Array | string): RunCheckpoint {
  const { now, ...contents } = input;
  const unsigned = { kind: RUN_CHECKPOINT_KIND, version: RUN_CHECKPOINT_VERSION, createdAt: now, ...contents };
  return signRecord(unsigned, key).value as RunCheckpoint;
}

/** Reads a checkpoint handed back by a host: schema, then signature. Throws {@link ParkedRunError}. */
export function verifyCheckpoint(raw: unknown, key: Uint8Array | string): RunCheckpoint {
  const value = outsideJson(raw, "run checkpoint");
  refuseNewerVersion(value, "this run checkpoint", RUN_CHECKPOINT_VERSION);
  const parsed = RunCheckpointSchema.safeParse(value);
  if (!parsed.success) {
    throw new ParkedRunError(
      "invalid_schema",
      `run checkpoint does not match schema v${RUN_CHECKPOINT_VERSION}: ${issuesLine(parsed.error)}`,
      { issues: describeIssues(parsed.error) },
    );
  }
  const { signature, ...unsigned } = parsed.data;
  const expected = Buffer.from(mac(key, canonicalJson(unsigned)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    throw new ParkedRunError(
      "bad_signature",
      "run checkpoint signature does not match: it was altered or signed with another key",
    );
  }
  return parsed.data;
}

/**
 * Hands the host a checkpoint — whole, a chain link, or both, as it asked — when messages were
 * appended since the last one (or since the run began or resumed): at the loop's top, every tool
 * result of the finished turn is in. Results of read-only or idempotent calls alone, with no
 * verdict since the last checkpoint, wait for the next one.
 */
export async function checkpointIfDue(ctx: RunContext): Promise<void> {
  const end = uncutEnd(ctx);
  if (!checkpointOwed(ctx, end) || onlyResultsThatMayWait(ctx, end)) return;
  await checkpoint(ctx, end);
}

/**
 * A stop while the model answers: the results that were waiting to ride with its answer are
 * checkpointed now, so the run continued elsewhere does not run those calls again. Only then —
 * each of them was in before the turn began, where a stop during the calls leaves results that are
 * the stop's own (a call cut short), which the continued run must run again.
 */
export async function checkpointWaitingResults(ctx: RunContext): Promise<void> {
  const end = ctx.messages.length;
  if (!checkpointOwed(ctx, end) || !onlyResultsThatMayWait(ctx, end)) return;
  try {
    await checkpoint(ctx, end);
  } catch {
    // It only saves running those calls again: a host that cannot take it now (a worker that lost
    // its lease, a database gone) must not turn the stop into a failed run.
  }
}

/** The host asked for checkpoints, and messages were appended since the last one (up to `end`). */
function checkpointOwed(ctx: RunContext, end: number): boolean {
  return (ctx.onCheckpoint !== undefined || ctx.onCheckpointSegment !== undefined) && end > ctx.checkpointedMessages;
}

/**
 * Where a checkpoint ends: once the run is stopped, before the first result the stop cut short. That
 * call did not finish (its effect may or may not have happened), so the run continued from the
 * checkpoint runs it again under the same key, as after a crash — not a result saying "stopped", which
 * the model would answer with a new call under a new key.
 */
function uncutEnd(ctx: RunContext): number {
  if (!ctx.signal.aborted) return ctx.messages.length;
  for (let i = ctx.checkpointedMessages; i < ctx.messages.length; i++) if (isStopped(ctx.messages[i]!)) return i;
  return ctx.messages.length;
}

/** Checkpoints the messages up to `end` (all appended since the last checkpoint, but for cut results). */
async function checkpoint(ctx: RunContext, end: number): Promise<void> {
  const from = ctx.checkpointedMessages;
  ctx.checkpointedMessages = end;
  ctx.checkpointedVerdicts = verdictCount(ctx.state.stats);
  const messages = end === ctx.messages.length ? ctx.messages : ctx.messages.slice(0, end);
  await appendCheckpointSegment(ctx, messages, from);
  if (!ctx.onCheckpoint) return;
  await ctx.onCheckpoint(
    signCheckpoint(
      { now: ctx.deps.clock.now(), spec: ctx.spec, history: ctx.history, messages, state: ctx.state },
      ctx.deps.parkKey,
    ),
  );
}

/**
 * True when all a checkpoint would add is results of calls to read-only or idempotent tools that no
 * person or classifier ruled on. A crash before the next checkpoint then costs only running those
 * calls again (the same ids and idempotency keys, and no effect to repeat) — no model call a crash
 * there would not cost anyway, and no verdict asked twice: so they ride with the next accepted
 * answer's checkpoint, and such a tool turn costs the host one write, not two.
 */
function onlyResultsThatMayWait(ctx: RunContext, end: number): boolean {
  if (verdictCount(ctx.state.stats) !== ctx.checkpointedVerdicts) return false;
  for (let i = ctx.checkpointedMessages; i < end; i++) {
    const message = ctx.messages[i]!;
    if (message.role !== "toolResult") return false;
    const tool = findTool(ctx.tools, message.toolName);
    if (!tool?.readOnly && !tool?.idempotent) return false;
  }
  return true;
}

/** A checkpoint or a chain of links, as a host hands it back to `continueRun`: verified, then read. */
export function readCheckpoint(raw: unknown, key: Uint8Array | string): CheckpointContents {
  const value = outsideJson(raw, "run checkpoint");
  return Array.isArray(value) ? joinCheckpointSegments(value, key) : verifyCheckpoint(value, key);
}
