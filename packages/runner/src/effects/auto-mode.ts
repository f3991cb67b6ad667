import {
  attributedUserText,
  emptyUsage,
  type AssistantMessage,
  type Message,
  type Model,
  type RouteJudgement,
  type ToolCall,
} from "@x/llm-types";
import {
  CLASSIFIER_ARMING_NOTICES,
  classifierSeatModel,
  createAutoModeDecider,
  createDenialLimit,
  type AutoModeDecider,
  type AutoModeVerdict,
  type DenialLimit,
} from "@x/classifier-ladder";
import type { AutoModeGate } from "../state/run-parts";
import type { RunContext } from "../state/run-context";
import { judgeByAncestors } from "./ancestor-station";
import { runBudgetExceeded } from "../decisions/budget";
import { noticeUnavailable, openClassification, reportVerdict, stationTracer } from "./classification-report";
import { ruleAllowance } from "../decisions/auto-mode-rules";
import { canonicalJson, sha256Hex } from "../vocabulary/canonical-json";
import type { AutoModeRuling } from "../vocabulary/auto-mode-ruling";
import type { VerdictInfo } from "../vocabulary/events";
import { createEarlyRulings } from "./early-rulings";
import { addClassifierUsage } from "../state/stats";

/**
 * The route pre-flight's judge: the brain that would carry the call judges its own route (a missing
 * key for the classifier's provider); no brain for the model's wire at all is a broken route too. A
 * brain that cannot tell has no opinion, and the ladder handles a real failure after the call.
 */
function judgeRoute(ctx: RunContext, model: Model): RouteJudgement {
  const brain = ctx.deps.brains.get(model.api);
  if (!brain) return { broken: true, cause: "no_brain" };
  return brain.judgeRoute?.(model) ?? { broken: false };
}

/** The user's own words in a transcript: what the classifier is shown as the user, and nothing else. */
function userWords(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === "user"
      ? attributedUserText(message)
          .filter((part) => part.source === "user")
          .map((part) => part.text)
      : [],
  );
}

/** The same call under the same user words: tool name, canonical arguments, and those words. */
function rulingKey(ctx: RunContext, call: ToolCall): string {
  const words = userWords([...ctx.history, ...ctx.messages]);
  return sha256Hex(canonicalJson({ tool: call.name, arguments: call.arguments, user: words }));
}

/** What a kept ruling is, as the gate and the verdict event read it. */
function rulingVerdict(ruling: AutoModeRuling): AutoModeVerdict {
  return ruling.verdict === "block"
    ? { verdict: "block", reason: ruling.reason ?? "blocked earlier" }
    : { verdict: "allow" };
}

function keep(key: string, verdict: "allow" | "block", info: VerdictInfo): AutoModeRuling {
  const { reason, model, ruleId, ancestorRunId, attempt } = info;
  return {
    key,
    verdict,
    source: info.source === "rule" ? "rule" : "classifier",
    station: info.station,
    ...(verdict === "block" && reason !== undefined ? { reason } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(ruleId !== undefined ? { ruleId } : {}),
    ...(ancestorRunId !== undefined ? { ancestorRunId } : {}),
    ...(attempt !== undefined ? { attempt } : {}),
  };
}

/** The turn still streaming as the classifier's transcript shows it: the calls whose arguments are whole. */
function streamedSoFar(ctx: RunContext, before: readonly ToolCall[]): AssistantMessage {
  const model = ctx.taskModel.model;
  return {
    role: "assistant",
    content: [...before],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: ctx.deps.clock.now(),
  };
}

/** Notices the decider mints once per run when it is armed; a resumed run does not repeat them. */
const ARMING_NOTICES = new Set(CLASSIFIER_ARMING_NOTICES);

/**
 * Auto mode for one run: the seat from classifier-ladder's one resolver, its decider (armed on the
 * first gated call, so a run with no `auto` tool never arms it), and the denial limit. The
 * classifier's usage is counted into the run's stats.
 */
export function createAutoModeGate(ctx: RunContext): AutoModeGate {
  const options = ctx.deps.autoMode;
  // Made on first use, like the decider: a bad limit knob then ends the run `config_invalid` from
  // inside the loop, and a run with no gated call never reads it. The limit keeps its counters in the
  // run's own state (what a park stores), so a resumed run picks them up exactly where it left them.
  let denialLimit: DenialLimit | undefined;
  const limit = (): DenialLimit =>
    (denialLimit ??= createDenialLimit({
      maxConsecutive: options.maxConsecutiveDenials,
      maxTotal: options.maxTotalDenials,
      holder: ctx.state,
    }));
  let decider: AutoModeDecider | undefined;
  const early = createEarlyRulings(ctx.signal);
  /** Ruling keys classified early in the turn now streaming. */
  const prejudged = new Set<string>();
  const arm = (): AutoModeDecider => {
    if (decider) return decider;
    const main = ctx.taskModel.model;
    const seat = classifierSeatModel({ deps: ctx.deps.routing, main });
    const quiet = ctx.state.seatAnnounced;
    decider = createAutoModeDecider({
      brainFor: (model) => ctx.deps.brains.get(model.api),
      seat,
      main,
      classifierFallback: options.classifierFallback,
      routeJudge: (model) => judgeRoute(ctx, model),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      onNotice: (notice) => {
        if (quiet && ARMING_NOTICES.has(notice.code)) return;
        ctx.notice(notice);
      },
      ...(ctx.deps.tracer ? { tracer: stationTracer(ctx.deps.tracer, { station: "leg" })! } : {}),
      // The budget is a hard stop before EVERY model call, the classifier's included: its calls are
      // billed to the run, and a refused call makes the classification unavailable, never an allow.
      admitCall: (spent) => runBudgetExceeded(ctx, spent)?.message,
      taskId: ctx.runId,
      runId: ctx.runId,
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    });
    ctx.state.seatAnnounced = true;
    return decider;
  };

  return {
    route() {
      // Decided here once: the limit says whether a person can be asked; the gate only follows it.
      const route = limit().route(ctx.deps.approver !== undefined);
      if (route === "classify") return { route };
      // A classifier that keeps failing to rule gave no verdict to count: its calls go where an
      // unavailable classification's go (a person, or the park), never to a stop.
      if (limit().state.tripped === "consecutive_unavailable") return { route: "ask", kind: "auto_unavailable" };
      return route === "ask" ? { route, kind: "denial_limit" } : { route };
    },
    personDecided() {
      limit().personDecided();
    },
    prejudge(call, before) {
      // Only a call the gate will hand to this run's classifier: no kept ruling, no allow rule, and
      // the denial limit still lets the classifier judge. A bad auto-mode knob (arming throws) is
      // left to the gate, which arms in order and ends the run typed.
      let active: AutoModeDecider;
      try {
        if (limit().route(ctx.deps.approver !== undefined) !== "classify") return;
        if (ruleAllowance(ctx.spec.autoModeRules, call)) return;
        const key = rulingKey(ctx, call);
        // The same call twice in one turn is classified once: the gate reuses the first ruling.
        if (prejudged.has(key) || ctx.state.autoModeRulings?.some((ruling) => ruling.key === key)) return;
        prejudged.add(key);
        active = arm();
      } catch {
        return;
      }
      const transcript = [...ctx.history, ...ctx.messages, streamedSoFar(ctx, before)];
      early.start(call, (signal) => active.decide({ toolCall: call, transcript, tools: ctx.toolSpecs, signal }));
    },
    dropPrejudged: () => {
      prejudged.clear();
      return early.drop((outcome) => addClassifierUsage(ctx.state.stats, outcome.usage, outcome.calls));
    },
    upheld() {
      limit().record({ verdict: "block" });
    },
    async decide(call: ToolCall, signal: AbortSignal): Promise<AutoModeVerdict> {
      // The first ruling on this call under these user words stands for the rest of the run.
      const key = rulingKey(ctx, call);
      const earlier = ctx.state.autoModeRulings?.find((ruling) => ruling.key === key);
      if (earlier) {
        const { key: _key, source: _source, ...was } = earlier;
        reportVerdict(ctx, call, { ...was, source: "reused", wallMs: 0 });
        const verdict = rulingVerdict(earlier);
        if (!(verdict.verdict === "block" && options.appeal)) limit().record(verdict);
        return verdict;
      }
      const ruled = await judge(call, signal);
      const final = ruled.inherited?.verdict ?? ruled.outcome;
      const info = ruled.inherited ? ruled.inherited.info : ruled.info;
      if ((final.verdict === "allow" || final.verdict === "block") && info) {
        (ctx.state.autoModeRulings ??= []).push(keep(key, final.verdict, { ...info, ...final }));
      }
      const record = ruled.inherited?.record ?? ruled.outcome;
      // On appeal a block counts only once a person upholds it (`upheld`).
      if (!(record.verdict === "block" && options.appeal)) limit().record(record);
      return final;
    },
  };

  /** This run's station — its allow rule, else its classifier — then every ancestor's for a call it allowed. */
  async function judge(call: ToolCall, signal: AbortSignal) {
    const allowed = ruleAllowance(ctx.spec.autoModeRules, call);
    let outcome: AutoModeVerdict;
    let info: VerdictInfo;
    if (allowed) {
      info = { verdict: "allow", source: "rule", ruleId: allowed.ruleId, station: "leg", wallMs: 0 };
      reportVerdict(ctx, call, info);
      outcome = { verdict: "allow" };
    } else {
      const active = arm();
      const report = openClassification(ctx, call, active.model.id, { station: "leg" });
      const classified = await (early.take(call) ??
        active.decide({ toolCall: call, transcript: [...ctx.history, ...ctx.messages], tools: ctx.toolSpecs, signal }));
      info = report(classified);
      outcome = classified;
      // A classification cut by the spent budget or an abort is not handed to anyone: the gate ends
      // the run, so telling the user "a person decides" would be untrue. Whoever answers the ask
      // path is a person: a live approver, or the park.
      if (classified.verdict === "unavailable" && !runBudgetExceeded(ctx) && !signal.aborted)
        noticeUnavailable(
          ctx,
          call,
          { station: "leg", approvalSeat: true, budgetMs: active.timeoutMs },
          classified.cause,
        );
    }
    // A sub-run's call the leg allowed still needs every ancestor's station; its own allow rule never skips them.
    const inherited = outcome.verdict === "allow" ? await judgeByAncestors(ctx, call, signal) : undefined;
    return { outcome, info, inherited };
  }
}
