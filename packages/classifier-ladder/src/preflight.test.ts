import type { EngineNotice } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { model } from "../test/fixtures";
import { ClassifierConfigError } from "./errors";
import { armClassifierLadder, CLASSIFIER_ARMING_NOTICES, derivedRouteFallsBack } from "./preflight";

const main = model("main-model");
const cheap = model("cheap-model", { baseUrl: "https://cheap.example/v1" });
const broken = () => ({ broken: true, cause: "credential_missing" });
const healthy = () => ({ broken: false });

describe("derivedRouteFallsBack", () => {
  it("falls back only when the routes differ and the judge finds the seat's route broken", () => {
    expect(derivedRouteFallsBack({ classifier: cheap, main, routeJudge: broken })).toEqual({
      fallsBack: true,
      cause: "credential_missing",
    });
    expect(derivedRouteFallsBack({ classifier: cheap, main, routeJudge: healthy })).toEqual({ fallsBack: false });
    expect(derivedRouteFallsBack({ classifier: main, main, routeJudge: broken })).toEqual({ fallsBack: false });
    expect(derivedRouteFallsBack({ classifier: cheap, main })).toEqual({ fallsBack: false });
  });

  it("asks the judge about the classifier's route, not the main's", () => {
    const asked: string[] = [];
    derivedRouteFallsBack({ classifier: cheap, main, routeJudge: (m) => (asked.push(m.id), { broken: false }) });
    expect(asked).toEqual(["cheap-model"]);
  });

  it("names a cause even when the judge gives none, and ignores a judge that throws", () => {
    expect(derivedRouteFallsBack({ classifier: cheap, main, routeJudge: () => ({ broken: true }) })).toEqual({
      fallsBack: true,
      cause: "route_broken",
    });
    const throwing = () => {
      throw new Error("judge down");
    };
    expect(derivedRouteFallsBack({ classifier: cheap, main, routeJudge: throwing })).toEqual({ fallsBack: false });
  });
});

describe("armClassifierLadder", () => {
  it("swaps to the main model, announces route.fallback_to_primary once, and the ladder folds to one rung", () => {
    const notices: EngineNotice[] = [];
    const armed = armClassifierLadder({
      seat: { model: cheap },
      main,
      routeJudge: broken,
      onNotice: (n) => notices.push(n),
      runId: "r",
    });
    expect(armed.model).toBe(main);
    expect(armed.rungs).toEqual([main]);
    expect(armed.unroutable).toBeUndefined();
    expect(notices.map((n) => n.code)).toEqual(["route.fallback_to_primary"]);
    expect(notices[0]).toMatchObject({
      audience: "operator",
      detail: { seat: "classifier", from: "cheap-model", to: "main-model", cause: "credential_missing" },
      runId: "r",
    });
  });

  it("under none keeps the seat and announces route.classifier_unroutable", () => {
    const notices: EngineNotice[] = [];
    const armed = armClassifierLadder({
      seat: { model: cheap },
      main,
      classifierFallback: "none",
      routeJudge: broken,
      onNotice: (n) => notices.push(n),
    });
    expect(armed.model).toBe(cheap);
    expect(armed.rungs).toEqual([cheap]);
    expect(armed.unroutable).toEqual({ cause: "credential_missing" });
    expect(notices.map((n) => n.code)).toEqual(["route.classifier_unroutable"]);
  });

  it("a healthy route keeps both rungs and announces nothing but the defaulted seat, naming the model asked", () => {
    const notices: EngineNotice[] = [];
    const armed = armClassifierLadder({
      seat: { model: cheap, defaulted: "tier_below_main" },
      main,
      routeJudge: healthy,
      onNotice: (n) => notices.push(n),
    });
    expect(armed.rungs).toEqual([cheap, main]);
    expect(notices.map((n) => n.code)).toEqual(["classifier.role_defaulted"]);
    expect(notices[0]!.detail).toMatchObject({ model: "cheap-model" });
  });

  it("after a swap the role_defaulted line names the main model actually asked, after the swap line", () => {
    const notices: EngineNotice[] = [];
    armClassifierLadder({
      seat: { model: cheap, defaulted: "tier_below_main" },
      main,
      routeJudge: broken,
      onNotice: (n) => notices.push(n),
    });
    expect(notices.map((n) => n.code)).toEqual(["route.fallback_to_primary", "classifier.role_defaulted"]);
    expect(notices[1]!.detail).toMatchObject({ model: "main-model", reason: "tier_below_main" });
  });

  it("CLASSIFIER_ARMING_NOTICES names every code arming can mint", () => {
    const codes = new Set<string>();
    for (const routeJudge of [broken, healthy]) {
      for (const classifierFallback of ["main", "none"]) {
        armClassifierLadder({
          seat: { model: cheap, defaulted: "tier_below_main" },
          main,
          classifierFallback,
          routeJudge,
          onNotice: (n) => codes.add(n.code),
        });
      }
    }
    expect([...codes].sort()).toEqual([...CLASSIFIER_ARMING_NOTICES].sort());
  });

  it("refuses a bad knob loudly before any notice", () => {
    const notices: EngineNotice[] = [];
    expect(() =>
      armClassifierLadder({
        seat: { model: cheap },
        main,
        classifierFallback: "always",
        onNotice: (n) => notices.push(n),
      }),
    ).toThrow(ClassifierConfigError);
    expect(notices).toEqual([]);
  });
});
