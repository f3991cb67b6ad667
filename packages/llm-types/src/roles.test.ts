import { describe, expect, it } from "vitest";
import { defineCatalog, resolveModelRef } from "./catalog";
import type { ModelInput } from "./model";
import { expandTierKeys, resolveRole, roleSpecNamesModel, tiersActive } from "./roles";

const m = (id: string, extra: Partial<ModelInput> = {}): ModelInput => ({
  id,
  api: "faux",
  provider: "p",
  baseUrl: "faux://local",
  contextWindow: 1000,
  maxTokens: 100,
  ...extra,
});

const models = defineCatalog({
  big: m("big"),
  mid: m("mid"),
  small: m("small"),
  "other/small": m("small", { provider: "other" }),
});

describe("catalog", () => {
  it("resolves by key, by provider/id, by a unique bare id, and passes a Model through", () => {
    expect(resolveModelRef(models, "big")?.id).toBe("big");
    expect(resolveModelRef(models, "other/small")?.provider).toBe("other");
    expect(resolveModelRef(models, "p/mid")?.id).toBe("mid");
    expect(resolveModelRef(models, models.big!)).toBe(models.big);
  });

  it("refuses an ambiguous bare id and an unknown ref", () => {
    const ambiguous = defineCatalog({ a: m("dup"), b: m("dup", { provider: "q" }) });
    expect(resolveModelRef(ambiguous, "dup")).toBeUndefined();
    expect(resolveModelRef(models, "nope")).toBeUndefined();
    expect(resolveModelRef(models, "constructor")).toBeUndefined();
    expect(resolveModelRef(models, "__proto__")).toBeUndefined();
  });

  it("names the catalog key and field of a bad entry", () => {
    expect(() => defineCatalog({ good: m("g"), bad: { ...m("b"), maxTokens: 0 } })).toThrow(/bad\.maxTokens/);
  });
});

describe("roles and tiers", () => {
  it("knows which specs name a model", () => {
    expect(roleSpecNamesModel("big")).toBe(true);
    expect(roleSpecNamesModel(models.big)).toBe(true);
    expect(roleSpecNamesModel({ model: "big" })).toBe(true);
    expect(roleSpecNamesModel({ select: () => undefined })).toBe(true);
    expect(roleSpecNamesModel(["big", "mid"])).toBe(true);
    expect(roleSpecNamesModel({ thinking: "low" })).toBe(false);
    expect(roleSpecNamesModel(undefined)).toBe(false);
  });

  it("expands tier words: unbound tiers fall down to the next bound one, then up", () => {
    const expanded = expandTierKeys({ models, tiers: { pro: "big", lite: "small" } });
    expect(expanded.max?.id).toBe("big");
    expect(expanded.pro?.id).toBe("big");
    expect(expanded.flash?.id).toBe("small");
    expect(expanded.lite?.id).toBe("small");
    const onlyTop = expandTierKeys({ models, tiers: { max: "big" } });
    expect(onlyTop.lite?.id).toBe("big");
  });

  it("lets a catalog key spelled like a tier shadow the binding", () => {
    const shadowing = defineCatalog({ ...models, flash: m("mid") });
    expect(expandTierKeys({ models: shadowing, tiers: { flash: "small" } }).flash?.id).toBe("mid");
  });

  it("ignores tier bindings that resolve to nothing", () => {
    expect(tiersActive({ models, tiers: { max: "ghost" } })).toBe(false);
    expect(expandTierKeys({ models, tiers: { max: "ghost" } })).toBe(models);
  });

  it("resolves a role that names a model, with its fallback chain and thinking preset", () => {
    const r = resolveRole(
      { models, roles: { advisor: { model: "big", fallbacks: ["mid", "ghost"], thinking: "high" } } },
      "advisor",
      models.small!,
    );
    expect(r).toMatchObject({ via: "role", model: { id: "big" }, thinking: "high" });
    expect(r.fallbacks.map((x) => x.id)).toEqual(["mid"]);
    const list = resolveRole({ models, roles: { default: ["mid", "small"] } }, "default", models.big!);
    expect(list.model.id).toBe("mid");
    expect(list.fallbacks.map((x) => x.id)).toEqual(["small"]);
  });

  it("stands the main model in for a role naming a model the catalog lacks", () => {
    expect(resolveRole({ models, roles: { helper: "ghost" } }, "helper", models.mid!)).toMatchObject({
      via: "role_unresolvable",
      model: { id: "mid" },
    });
  });

  it("reads the tier table when tiers are declared and the role names no model", () => {
    const r = resolveRole(
      { models, roles: { classifier: { thinking: "off" } }, tiers: { max: "big", flash: "small" } },
      "classifier",
      models.big!,
    );
    expect(r).toMatchObject({ via: "tier_table", tier: "flash", model: { id: "small" }, thinking: "off" });
  });

  it("walks the role fallback chain without tiers, then the main model", () => {
    expect(resolveRole({ models, roles: { summarize: "small" } }, "classifier", models.big!)).toMatchObject({
      via: "role_fallback",
      from: "summarize",
      model: { id: "small" },
    });
    expect(resolveRole({ models, roles: { default: "mid" } }, "helper", models.big!)).toMatchObject({
      via: "role_fallback",
      from: "default",
      model: { id: "mid" },
    });
    expect(resolveRole({ models }, "classifier", models.big!)).toMatchObject({ via: "main", model: { id: "big" } });
  });

  it("resolves a { select } role against the catalog", () => {
    const r = resolveRole(
      { models, roles: { helper: { select: (all) => all.find((x) => x.id === "small") } } },
      "helper",
      models.big!,
    );
    expect(r.model.id).toBe("small");
  });
});
