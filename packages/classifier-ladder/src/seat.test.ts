import { resolveRole, type EngineNotice, type ModelCatalog } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { model } from "../test/fixtures";
import { announceClassifierRoleDefaulted, CLASSIFIER_ROLE_DEFAULT_REASONS, classifierSeatModel } from "./seat";

const max = model("big-max");
const pro = model("mid-pro");
const flash = model("small-flash");
const lite = model("tiny-lite");
const models: ModelCatalog = { max_m: max, pro_m: pro, flash_m: flash, lite_m: lite };

describe("classifierSeatModel", () => {
  it("takes a classifier role that names a model, in every naming form", () => {
    for (const spec of [
      "flash_m",
      "faux/small-flash",
      "small-flash",
      flash,
      { model: "flash_m" },
      { select: () => flash },
      ["flash_m", "lite_m"],
    ] as const) {
      expect(classifierSeatModel({ deps: { models, roles: { classifier: spec } }, main: max })).toEqual({
        model: flash,
      });
    }
  });

  it("a role naming a model wins over tiers", () => {
    const seat = classifierSeatModel({
      deps: { models, roles: { classifier: "max_m" }, tiers: { max: "max_m", flash: "flash_m" } },
      main: max,
    });
    expect(seat).toEqual({ model: max });
  });

  it("a role naming a model the catalog lacks stands the main model in, role_unresolvable", () => {
    expect(classifierSeatModel({ deps: { models, roles: { classifier: "gone" } }, main: pro })).toEqual({
      model: pro,
      defaulted: "role_unresolvable",
    });
    expect(
      classifierSeatModel({ deps: { models, roles: { classifier: { select: () => undefined } } }, main: pro }),
    ).toEqual({ model: pro, defaulted: "role_unresolvable" });
  });

  it("a preset-only role names no model and takes the default", () => {
    const seat = classifierSeatModel({
      deps: { models, roles: { classifier: { thinking: "off" } }, tiers: { max: "max_m", flash: "flash_m" } },
      main: max,
    });
    expect(seat).toEqual({ model: flash, defaulted: "tier_below_main" });
  });

  it("picks the nearest tier strictly below the main's", () => {
    const tiers = { max: "max_m", pro: "pro_m", flash: "flash_m", lite: "lite_m" };
    expect(classifierSeatModel({ deps: { models, tiers }, main: max })).toEqual({
      model: pro,
      defaulted: "tier_below_main",
    });
    expect(classifierSeatModel({ deps: { models, tiers }, main: pro })).toEqual({
      model: flash,
      defaulted: "tier_below_main",
    });
    expect(classifierSeatModel({ deps: { models, tiers }, main: flash })).toEqual({
      model: lite,
      defaulted: "tier_below_main",
    });
    expect(classifierSeatModel({ deps: { models, tiers }, main: lite })).toEqual({
      model: lite,
      defaulted: "main_only",
    });
  });

  it("an unbound tier falls down to the next bound one", () => {
    expect(classifierSeatModel({ deps: { models, tiers: { max: "max_m", lite: "lite_m" } }, main: max })).toEqual({
      model: lite,
      defaulted: "tier_below_main",
    });
  });

  it("skips a tier below that carries the main's own route", () => {
    const twin = { ...max }; // another catalog entry, same route
    const seat = classifierSeatModel({
      deps: { models: { ...models, twin }, tiers: { max: "max_m", pro: "twin", flash: "flash_m" } },
      main: max,
    });
    expect(seat).toEqual({ model: flash, defaulted: "tier_below_main" });
  });

  it("treats a same-id model on another endpoint as a different route", () => {
    const elsewhere = model("big-max", { baseUrl: "https://other.example/v1" });
    const seat = classifierSeatModel({
      deps: { models: { ...models, elsewhere }, tiers: { max: "max_m", flash: "elsewhere" } },
      main: max,
    });
    expect(seat).toEqual({ model: elsewhere, defaulted: "tier_below_main" });
  });

  it("the main's tier is the lowest its route sits on", () => {
    const tiers = { max: "flash_m", pro: "pro_m", flash: "flash_m", lite: "lite_m" };
    expect(classifierSeatModel({ deps: { models, tiers }, main: flash })).toEqual({
      model: lite,
      defaulted: "tier_below_main",
    });
    const noLite = { max: "flash_m", pro: "pro_m", flash: "flash_m" };
    expect(classifierSeatModel({ deps: { models, tiers: noLite }, main: flash })).toEqual({
      model: flash,
      defaulted: "main_only",
    });
  });

  it("a catalog key spelled like a tier shadows the binding", () => {
    const seat = classifierSeatModel({
      deps: { models: { ...models, pro: lite }, tiers: { max: "max_m", pro: "pro_m" } },
      main: max,
    });
    expect(seat).toEqual({ model: lite, defaulted: "tier_below_main" });
  });

  it("a main on no tier reads the static flash row, tier_table", () => {
    const stray = model("stray");
    expect(
      classifierSeatModel({
        deps: { models: { ...models, stray }, tiers: { max: "max_m", flash: "flash_m" } },
        main: stray,
      }),
    ).toEqual({ model: flash, defaulted: "tier_table" });
  });

  it("without tiers follows the summarize → default chain, role_fallback", () => {
    expect(
      classifierSeatModel({ deps: { models, roles: { summarize: "lite_m", default: "pro_m" } }, main: max }),
    ).toEqual({ model: lite, defaulted: "role_fallback" });
    expect(classifierSeatModel({ deps: { models, roles: { default: "pro_m" } }, main: max })).toEqual({
      model: pro,
      defaulted: "role_fallback",
    });
  });

  it("with nothing declared the main model classifies, main_only", () => {
    expect(classifierSeatModel({ deps: { models: { only: max } }, main: max })).toEqual({
      model: max,
      defaulted: "main_only",
    });
    expect(classifierSeatModel({ deps: { models, tiers: { max: "nowhere" } }, main: max })).toEqual({
      model: max,
      defaulted: "main_only",
    });
  });

  it("every reason it returns is in the closed set", () => {
    const seats = [
      classifierSeatModel({ deps: { models, tiers: { max: "max_m", flash: "flash_m" } }, main: max }),
      classifierSeatModel({ deps: { models, roles: { classifier: "x" } }, main: max }),
      classifierSeatModel({ deps: { models }, main: max }),
    ];
    for (const seat of seats) expect(CLASSIFIER_ROLE_DEFAULT_REASONS).toContain(seat.defaulted);
  });

  it("classifier.seat.one_resolver — a named role is exactly the llm-types role resolver's answer", () => {
    const routings = [
      { models, roles: { classifier: "lite_m" } },
      { models, roles: { classifier: { model: "pro_m", fallbacks: ["lite_m"] } } },
      { models, roles: { classifier: { select: (all: readonly (typeof max)[]) => all.at(-1) } } },
    ];
    for (const routing of routings) {
      expect(classifierSeatModel({ deps: routing, main: max }).model).toBe(
        resolveRole(routing, "classifier", max).model,
      );
    }
  });

  it("classifier.seat.one_resolver — the fallback branches agree with the role resolver where it answers", () => {
    const stray = model("stray");
    const tierTable = { models: { ...models, stray }, tiers: { max: "max_m", flash: "flash_m" } };
    expect(classifierSeatModel({ deps: tierTable, main: stray }).model).toBe(
      resolveRole(tierTable, "classifier", stray).model,
    );
    const chain = { models, roles: { summarize: "lite_m" } };
    expect(classifierSeatModel({ deps: chain, main: max }).model).toBe(resolveRole(chain, "classifier", max).model);
  });
});

describe("announceClassifierRoleDefaulted", () => {
  it("announces the reason and the model once, and is silent for a named role", () => {
    const notices: EngineNotice[] = [];
    announceClassifierRoleDefaulted({
      onNotice: (n) => notices.push(n),
      seat: { model: flash, defaulted: "tier_below_main" },
      sessionId: "s1",
      runId: "r1",
    });
    announceClassifierRoleDefaulted({ onNotice: (n) => notices.push(n), seat: { model: flash } });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      code: "classifier.role_defaulted",
      audience: "operator",
      detail: { model: "small-flash", reason: "tier_below_main" },
      sessionId: "s1",
      runId: "r1",
    });
    expect(notices[0]!.message).toContain("small-flash");
  });

  it("a throwing sink is swallowed", () => {
    expect(() =>
      announceClassifierRoleDefaulted({
        onNotice: () => {
          throw new Error("sink down");
        },
        seat: { model: flash, defaulted: "main_only" },
      }),
    ).not.toThrow();
  });
});
