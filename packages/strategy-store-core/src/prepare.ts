import { StrategyStoreError } from "./errors";
import { strategyKey } from "./normalise";
import { LIMITS } from "./limits";
import type { ParsedStrategyInput, StrategyRecord } from "./record";
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
  return prepareParsed(parseInput(input), embed);
}

async function prepareParsed(parsed: ParsedStrategyInput, embed: EmbedFn | undefined): Promise<PreparedStrategy> {
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

/**
 * Validates every input of a batch before anything is written (so a bad one leaves the store
 * untouched); the error's fields say which entry, as `3.problem`.
 */
export async function prepareBatch(inputs: unknown, embed?: EmbedFn): Promise<PreparedStrategy[]> {
  if (!Array.isArray(inputs) || inputs.length > LIMITS.batch) {
    throw new StrategyStoreError("invalid_input", `invalid strategies: must be an array of at most ${LIMITS.batch}`, {
      fields: ["strategies"],
    });
  }
  const parsed = inputs.map((input: unknown, i) => {
    try {
      return parseInput(input);
    } catch (error) {
      if (!(error instanceof StrategyStoreError)) throw error;
      const fields = error.fields.map((field) => `${i}.${field}`);
      throw new StrategyStoreError("invalid_input", `invalid strategies[${i}]: ${error.message}`, { fields });
    }
  });
  const prepared: PreparedStrategy[] = [];
  for (const one of parsed) prepared.push(await prepareParsed(one, embed));
  return prepared;
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
