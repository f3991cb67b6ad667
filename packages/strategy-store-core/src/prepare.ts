import { StrategyStoreError } from "./errors";
import { strategyKey } from "./normalise";
import type { StrategyRecord } from "./record";
import type { EmbedFn } from "./store";
import { parseInput } from "./validate";

/** A validated `put` input, ready for a backend to write. */
export interface PreparedStrategy {
  scope: string;
  problem: string;
  strategy: string;
  /** Dedupe key: same scope + same key ⇒ same record. */
  key: string;
  correction?: string;
  nextStep?: string;
  confidence: number;
  source: string;
  tags: string[];
  embedding?: number[];
}

/** Validates a `put` input (throws `invalid_input`) and embeds its problem text when `embed` is set. */
export async function prepareStrategy(input: unknown, embed?: EmbedFn): Promise<PreparedStrategy> {
  const parsed = parseInput(input);
  const embedding = parsed.embedding ?? (embed ? await embedOne(embed, parsed.problem) : undefined);
  return {
    scope: parsed.scope,
    problem: parsed.problem,
    strategy: parsed.strategy,
    key: strategyKey(parsed.strategy),
    ...(parsed.correction === undefined ? {} : { correction: parsed.correction }),
    ...(parsed.nextStep === undefined ? {} : { nextStep: parsed.nextStep }),
    confidence: parsed.confidence,
    source: parsed.source,
    tags: uniqueTags(parsed.tags ?? []),
    ...(embedding === undefined ? {} : { embedding }),
  };
}

function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()))];
}

/** Calls the host's embedder for one text and checks what came back. */
export async function embedOne(embed: EmbedFn, text: string): Promise<number[]> {
  let vectors: unknown;
  try {
    vectors = await embed([text]);
  } catch (cause) {
    throw new StrategyStoreError("embed_failed", "the embed function failed", { cause });
  }
  const vector: unknown = Array.isArray(vectors) ? vectors[0] : undefined;
  if (
    !Array.isArray(vectors) ||
    vectors.length !== 1 ||
    !Array.isArray(vector) ||
    vector.length === 0 ||
    !vector.every((x) => typeof x === "number" && Number.isFinite(x))
  ) {
    throw new StrategyStoreError(
      "embed_failed",
      "the embed function must return one finite, non-empty vector per text",
    );
  }
  return vector as number[];
}

export function newRecord(prepared: PreparedStrategy, id: string, now: string): StrategyRecord {
  const { key: _key, ...fields } = prepared;
  return { id, ...fields, createdAt: now, updatedAt: now, uses: 0, successes: 0 };
}

/**
 * The record after a duplicate put: the new wording and confidence win, prose the new put left out
 * is kept, tags accumulate, and the outcome counters are untouched (they belong to `recordOutcome`).
 */
export function mergeRecord(existing: StrategyRecord, prepared: PreparedStrategy, now: string): StrategyRecord {
  const correction = prepared.correction ?? existing.correction;
  const nextStep = prepared.nextStep ?? existing.nextStep;
  const embedding = prepared.embedding ?? existing.embedding;
  return {
    id: existing.id,
    scope: existing.scope,
    problem: prepared.problem,
    strategy: prepared.strategy,
    ...(correction === undefined ? {} : { correction }),
    ...(nextStep === undefined ? {} : { nextStep }),
    confidence: prepared.confidence,
    source: prepared.source,
    createdAt: existing.createdAt,
    updatedAt: now,
    uses: existing.uses,
    successes: existing.successes,
    tags: uniqueTags([...existing.tags, ...prepared.tags]),
    ...(embedding === undefined ? {} : { embedding }),
  };
}
