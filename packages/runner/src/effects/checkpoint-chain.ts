import { describeIssues, issuesLine, type Message } from "@x/llm-types";
import { timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../vocabulary/canonical-json";
import type { RunCheckpoint } from "../vocabulary/checkpoint";
import {
  RUN_CHECKPOINT_SEGMENT_KIND,
  RUN_CHECKPOINT_SEGMENT_VERSION,
  RunCheckpointSegmentSchema,
  type RunCheckpointSegment,
} from "../vocabulary/checkpoint-segment";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import { refuseNewerVersion } from "../decisions/stored-version";
import type { RunContext } from "../state/run-context";
import { mac } from "./park";
import { signRecord } from "./signed-record";

/** What a run continues from, however it was stored: one checkpoint, or a chain of links joined. */
export type CheckpointContents = Pick<RunCheckpoint, "spec" | "history" | "messages" | "state">;

/**
 * The link for `messages` (the run's, up to where the checkpoint ends) appended since the last one,
 * at `from`. The first link a run writes (in this process: a continued or resumed run starts a chain
 * of its own) carries the spec, history and every message so far; later ones only the new messages,
 * so signing costs what the turn added.
 */
export async function appendCheckpointSegment(
  ctx: RunContext,
  messages: readonly Message[],
  from: number,
): Promise<void> {
  if (!ctx.onCheckpointSegment) return;
  const last = ctx.segmentChain;
  const unsigned = {
    kind: RUN_CHECKPOINT_SEGMENT_KIND,
    version: RUN_CHECKPOINT_SEGMENT_VERSION,
    runId: ctx.runId,
    seq: last ? last.seq + 1 : 0,
    ...(last ? { prev: last.signature } : {}),
    createdAt: ctx.deps.clock.now(),
    ...(last ? {} : { base: { spec: ctx.spec, history: ctx.history } }),
    messages: last ? messages.slice(from) : messages,
    state: ctx.state,
  };
  const { value, json } = signRecord(unsigned, ctx.deps.parkKey);
  const segment = value as RunCheckpointSegment;
  ctx.segmentChain = { seq: segment.seq, signature: segment.signature };
  await ctx.onCheckpointSegment(segment, json);
}

/**
 * Reads the links a host hands back (screened already, by `readCheckpoint`), in order: each link's
 * schema and signature, then the chain
 * (`seq` 0, 1, 2 … with each `prev` the link before's signature, one run, the base on link 0 only).
 * A link missing, reordered, changed or from another run is refused before anything runs.
 * Throws {@link ParkedRunError} (`invalid_schema`, `bad_signature`, `version_unsupported`).
 */
export function joinCheckpointSegments(value: readonly unknown[], key: Uint8Array | string): CheckpointContents {
  if (value.length === 0)
    throw new ParkedRunError("invalid_schema", "a run checkpoint chain is a non-empty array of its links, in order");
  const links = value.map((link, i) => verifiedLink(link, i, key));
  const base = links[0]!.base;
  if (!base) throw new ParkedRunError("invalid_schema", "link 0 of a run checkpoint chain carries no base");
  const messages: Message[] = [];
  for (const [i, link] of links.entries()) {
    const before = links[i - 1];
    const broken =
      link.seq !== i ||
      link.runId !== base.spec.runId ||
      link.prev !== before?.signature ||
      (i > 0 && link.base !== undefined);
    if (broken)
      throw new ParkedRunError(
        "bad_signature",
        `run checkpoint chain is broken at link ${i}: a link is missing, reordered or from another run`,
      );
    messages.push(...link.messages);
  }
  if (messages.length === 0) throw new ParkedRunError("invalid_schema", "a run checkpoint chain holds no message");
  return { spec: base.spec, history: base.history, messages, state: links.at(-1)!.state };
}

function verifiedLink(raw: unknown, index: number, key: Uint8Array | string): RunCheckpointSegment {
  refuseNewerVersion(raw, `link ${index} of this run checkpoint chain`, RUN_CHECKPOINT_SEGMENT_VERSION);
  const parsed = RunCheckpointSegmentSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ParkedRunError(
      "invalid_schema",
      `link ${index} of a run checkpoint chain does not match schema v${RUN_CHECKPOINT_SEGMENT_VERSION}: ` +
        issuesLine(parsed.error),
      { issues: describeIssues(parsed.error) },
    );
  }
  const { signature, ...unsigned } = parsed.data;
  const expected = Buffer.from(mac(key, canonicalJson(unsigned)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex")))
    throw new ParkedRunError(
      "bad_signature",
      `link ${index} of a run checkpoint chain does not match its signature: it was altered or signed with another key`,
    );
  return parsed.data;
}
