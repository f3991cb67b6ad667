import { ClassifierConfigError } from "./errors";
import type { AutoModeVerdict } from "./outcome";

export interface DenialLimitOptions {
  /** Blocks in a row before the classifier is no longer asked. Default 3. */
  maxConsecutive?: number;
  /** Blocks in a run before the classifier is no longer asked. Default 20. */
  maxTotal?: number;
  /** Classifications in a row that could not rule (`unavailable` or `parse_error`). Default 3. */
  maxConsecutiveUnavailable?: number;
  /** Resume from a stored state (a parked run coming back), exactly as it was. */
  state?: DenialState;
  /**
   * Keep the state in the host's own holder (a run's parkable state) rather than a private one, so it
   * lives in one place and nothing copies it back. Its current value is screened like `state`.
   */
  holder?: DenialStateHolder;
}

/** Where a limit keeps its state: `denials` is replaced (never changed in place) on every step. */
export interface DenialStateHolder {
  denials: DenialState;
}

export const DEFAULT_DENIAL_LIMIT = Object.freeze({ maxConsecutive: 3, maxTotal: 20, maxConsecutiveUnavailable: 3 });

export const DENIAL_LIMIT_REASONS = ["consecutive_blocks", "total_blocks", "consecutive_unavailable"] as const;
export type DenialLimitReason = (typeof DENIAL_LIMIT_REASONS)[number];

export interface DenialState {
  readonly consecutiveBlocks: number;
  readonly totalBlocks: number;
  /** Classifications in a row that produced no ruling. Never counted as denials. */
  readonly consecutiveUnavailable: number;
  /** The limit reached, once one is: from then on a person decides gated calls (or the run stops). */
  readonly tripped?: DenialLimitReason;
}

/** What the runner does with the next gated call. */
export type DenialLimitRoute = "classify" | "ask" | "stop";

export interface DenialLimit {
  readonly state: DenialState;
  readonly limits: Readonly<Required<Omit<DenialLimitOptions, "state" | "holder">>>;
  /** Records one classification's verdict and returns the new state. */
  record(outcome: Pick<AutoModeVerdict, "verdict">): DenialState;
  /**
   * A person decided a handed-over call: the streaks restart and a streak trip clears, so the
   * classifier is asked again. A `total_blocks` trip stays for the rest of the run.
   */
  personDecided(): DenialState;
  /** Forgets everything (a new run). */
  reset(): DenialState;
  /** Classify while no limit is reached; then ask a person when one can be asked, else stop. */
  route(personAvailable: boolean): DenialLimitRoute;
}

function screen(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ClassifierConfigError(
      "config.denial_limit_invalid",
      `${name} must be a positive integer, got ${String(value)}`,
      value,
    );
  }
  return value;
}

/**
 * The denial limit, as a small state machine. A block counts toward both block limits; an allow
 * ends both streaks; a classification that could not rule is not a denial — it leaves the block
 * counts alone — but it has a streak and a limit of its own, so a classifier that is down cannot
 * keep a run asking it forever.
 */
export function createDenialLimit(options: DenialLimitOptions = {}): DenialLimit {
  const limits = Object.freeze({
    maxConsecutive: screen("maxConsecutive", options.maxConsecutive, DEFAULT_DENIAL_LIMIT.maxConsecutive),
    maxTotal: screen("maxTotal", options.maxTotal, DEFAULT_DENIAL_LIMIT.maxTotal),
    maxConsecutiveUnavailable: screen(
      "maxConsecutiveUnavailable",
      options.maxConsecutiveUnavailable,
      DEFAULT_DENIAL_LIMIT.maxConsecutiveUnavailable,
    ),
  });
  const initial: DenialState = Object.freeze({ consecutiveBlocks: 0, totalBlocks: 0, consecutiveUnavailable: 0 });
  const stored = options.state ?? options.holder?.denials;
  const cell: DenialStateHolder = options.holder ?? { denials: initial };
  cell.denials = stored === undefined ? initial : restore(stored);

  const trip = (next: Omit<DenialState, "tripped">): DenialState => {
    const tripped: DenialLimitReason | undefined =
      cell.denials.tripped ??
      (next.totalBlocks >= limits.maxTotal
        ? "total_blocks"
        : next.consecutiveBlocks >= limits.maxConsecutive
          ? "consecutive_blocks"
          : next.consecutiveUnavailable >= limits.maxConsecutiveUnavailable
            ? "consecutive_unavailable"
            : undefined);
    return Object.freeze(tripped ? { ...next, tripped } : { ...next });
  };

  return {
    get state() {
      return cell.denials;
    },
    limits,
    record(outcome) {
      switch (outcome.verdict) {
        case "block":
          cell.denials = trip({
            consecutiveBlocks: cell.denials.consecutiveBlocks + 1,
            totalBlocks: cell.denials.totalBlocks + 1,
            consecutiveUnavailable: 0,
          });
          break;
        case "allow":
          cell.denials = trip({
            consecutiveBlocks: 0,
            totalBlocks: cell.denials.totalBlocks,
            consecutiveUnavailable: 0,
          });
          break;
        default:
          cell.denials = trip({
            consecutiveBlocks: cell.denials.consecutiveBlocks,
            totalBlocks: cell.denials.totalBlocks,
            consecutiveUnavailable: cell.denials.consecutiveUnavailable + 1,
          });
      }
      return cell.denials;
    },
    personDecided() {
      const keep = cell.denials.tripped === "total_blocks" ? { tripped: cell.denials.tripped } : {};
      cell.denials = Object.freeze({
        consecutiveBlocks: 0,
        totalBlocks: cell.denials.totalBlocks,
        consecutiveUnavailable: 0,
        ...keep,
      });
      return cell.denials;
    },
    reset() {
      cell.denials = initial;
      return cell.denials;
    },
    route(personAvailable) {
      if (!cell.denials.tripped) return "classify";
      return personAvailable ? "ask" : "stop";
    },
  };
}

/** Screens a stored state (it comes back from outside: a parked run) and copies it. */
function restore(stored: DenialState): DenialState {
  const count = (name: keyof Omit<DenialState, "tripped">): number => {
    const value: unknown = stored?.[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new ClassifierConfigError(
        "config.denial_limit_invalid",
        `stored denial state: ${name} must be a non-negative integer, got ${String(value)}`,
        stored,
      );
    }
    return value;
  };
  const restored = {
    consecutiveBlocks: count("consecutiveBlocks"),
    totalBlocks: count("totalBlocks"),
    consecutiveUnavailable: count("consecutiveUnavailable"),
  };
  if (restored.consecutiveBlocks > restored.totalBlocks) {
    throw new ClassifierConfigError(
      "config.denial_limit_invalid",
      "stored denial state: more consecutive blocks than blocks in total",
      stored,
    );
  }
  const tripped: unknown = stored.tripped;
  if (tripped === undefined) return Object.freeze(restored);
  if (!(DENIAL_LIMIT_REASONS as readonly unknown[]).includes(tripped)) {
    throw new ClassifierConfigError(
      "config.denial_limit_invalid",
      `stored denial state: unknown limit ${JSON.stringify(tripped)}`,
      stored,
    );
  }
  return Object.freeze({ ...restored, tripped: tripped as DenialLimitReason });
}
