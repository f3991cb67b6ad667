import { safeObserve, type Model, type NoticeSink, type RouteJudgement } from "@x/llm-types";
import { autoModeClassifierFallbackOf, classifierLadderRungs } from "./rungs";
import { routesMatch } from "./route";
import { announceClassifierRoleDefaulted, type ClassifierSeat } from "./seat";

/** The host's judgement of a model's route: is its credential/URL pairing unusable, and why. */
export type RouteJudge = (model: Model) => RouteJudgement;

/**
 * The pre-flight, asked before any classifier call: does the classifier seat fall back to the main
 * model? Only when the two are different routes AND the host's judge finds the classifier's route
 * broken. A judge that throws has judged nothing: the seat stays, and a real failure is left to
 * the ladder.
 */
export function derivedRouteFallsBack(args: {
  classifier: Model;
  main: Model;
  routeJudge?: RouteJudge;
}): { fallsBack: false } | { fallsBack: true; cause: string } {
  const { classifier, main, routeJudge } = args;
  if (!routeJudge || routesMatch(classifier, main)) return { fallsBack: false };
  let verdict: RouteJudgement | undefined;
  try {
    verdict = routeJudge(classifier);
  } catch {
    return { fallsBack: false };
  }
  if (verdict?.broken !== true) return { fallsBack: false };
  return {
    fallsBack: true,
    cause: typeof verdict.cause === "string" && verdict.cause ? verdict.cause : "route_broken",
  };
}

/**
 * The notice codes arming mints, once per run. A host that arms again for the same run (a parked
 * run resumed in another process) filters these so the run's operator hears each only once.
 */
export const CLASSIFIER_ARMING_NOTICES: readonly string[] = Object.freeze([
  "route.fallback_to_primary",
  "route.classifier_unroutable",
  "classifier.role_defaulted",
]);

/** What arming a run's classifier produced: the rungs to walk, and whether the seat is known dead. */
export interface ArmedClassifierLadder {
  /** The model rung 0 runs on — the main model after a pre-flight swap. */
  readonly model: Model;
  readonly rungs: readonly Model[];
  /** Set under `classifierFallback: "none"` when the pre-flight found the seat's route broken. */
  readonly unroutable?: { readonly cause: string };
}

/**
 * Arms the ladder for one run: screens the knob (throws on a bad value), runs the pre-flight, builds
 * the rungs and mints the run's once-only notices — `route.fallback_to_primary` on a swap,
 * `route.classifier_unroutable` when `"none"` declines the swap, then `classifier.role_defaulted`
 * naming the model actually asked. After a swap seat and main are one route, so the ladder has one
 * rung: the two fallback layers fold rather than stack.
 */
export function armClassifierLadder(args: {
  seat: ClassifierSeat;
  main: Model;
  classifierFallback?: unknown;
  routeJudge?: RouteJudge;
  onNotice?: NoticeSink;
  sessionId?: string;
  runId?: string;
}): ArmedClassifierLadder {
  const { seat, main, onNotice, sessionId, runId } = args;
  const fallback = autoModeClassifierFallbackOf(args.classifierFallback);
  const ids = { ...(sessionId !== undefined ? { sessionId } : {}), ...(runId !== undefined ? { runId } : {}) };
  const preflight = derivedRouteFallsBack({
    classifier: seat.model,
    main,
    ...(args.routeJudge ? { routeJudge: args.routeJudge } : {}),
  });
  let model = seat.model;
  let unroutable: { cause: string } | undefined;
  if (preflight.fallsBack && fallback === "main") {
    model = main;
    safeObserve(onNotice, {
      code: "route.fallback_to_primary",
      audience: "operator",
      message: [
        `The classifier model ${seat.model.provider}/${seat.model.id}`,
        `cannot be reached (${preflight.cause}); auto mode classifies`,
        `on the main model ${main.provider}/${main.id} for this run.`,
      ].join(" "),
      detail: { seat: "classifier", from: seat.model.id, to: main.id, cause: preflight.cause },
      ...ids,
    });
  } else if (preflight.fallsBack) {
    unroutable = { cause: preflight.cause };
    safeObserve(onNotice, {
      code: "route.classifier_unroutable",
      audience: "operator",
      message: [
        `The classifier model ${seat.model.provider}/${seat.model.id}`,
        `cannot be reached (${preflight.cause}) and classifierFallback`,
        `is "none"; gated calls are not auto-approved this run.`,
      ].join(" "),
      detail: { seat: "classifier", model: seat.model.id, cause: preflight.cause },
      ...ids,
    });
  }
  announceClassifierRoleDefaulted({
    onNotice,
    seat: seat.defaulted ? { model, defaulted: seat.defaulted } : { model },
    ...ids,
  });
  return { model, rungs: classifierLadderRungs(fallback, model, main), ...(unroutable ? { unroutable } : {}) };
}
