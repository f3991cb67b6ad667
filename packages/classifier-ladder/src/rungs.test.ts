import { describe, expect, it } from "vitest";
import { model } from "../test/fixtures";
import { ClassifierConfigError } from "./errors";
import { autoModeClassifierFallbackOf, classifierLadderRungs } from "./rungs";

const main = model("main-model");
const cheap = model("cheap-model");

describe("autoModeClassifierFallbackOf", () => {
  it("defaults to main and passes the closed set through", () => {
    expect(autoModeClassifierFallbackOf(undefined)).toBe("main");
    expect(autoModeClassifierFallbackOf("main")).toBe("main");
    expect(autoModeClassifierFallbackOf("none")).toBe("none");
  });

  it("refuses anything else with a typed config error", () => {
    for (const bad of ["Main", "off", "", null, false, 0, {}]) {
      let caught: unknown;
      try {
        autoModeClassifierFallbackOf(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ClassifierConfigError);
      expect((caught as ClassifierConfigError).code).toBe("config.auto_mode_classifier_fallback_invalid");
      expect((caught as ClassifierConfigError).value).toBe(bad);
    }
  });
});

describe("classifierLadderRungs", () => {
  it("is the seat then the main model under the default", () => {
    expect(classifierLadderRungs(undefined, cheap, main)).toEqual([cheap, main]);
    expect(classifierLadderRungs("main", cheap, main)).toEqual([cheap, main]);
  });

  it("is the seat alone under none", () => {
    expect(classifierLadderRungs("none", cheap, main)).toEqual([cheap]);
  });

  it("is one rung when both are the same route, however the baseUrl is spelled", () => {
    const sameRoute = model("main-model", { baseUrl: "HTTP://127.0.0.1:9/v1/" });
    expect(classifierLadderRungs(undefined, sameRoute, main)).toEqual([sameRoute]);
    expect(classifierLadderRungs(undefined, main, main)).toEqual([main]);
  });

  it("is two rungs for the same id on another endpoint (route identity, not Model.id)", () => {
    const elsewhere = model("main-model", { baseUrl: "https://gateway.example/v1" });
    expect(classifierLadderRungs(undefined, elsewhere, main)).toEqual([elsewhere, main]);
    const otherProvider = model("main-model", { provider: "other" });
    expect(classifierLadderRungs(undefined, otherProvider, main)).toHaveLength(2);
  });

  it("reads a baseUrl the identity law cannot normalise as two rungs", () => {
    const broken = { ...main, baseUrl: 42 as unknown as string };
    expect(classifierLadderRungs(undefined, broken, main)).toEqual([broken, main]);
  });

  it("throws on a bad knob instead of reading it as the default", () => {
    expect(() => classifierLadderRungs("fallback", cheap, main)).toThrow(ClassifierConfigError);
  });
});
