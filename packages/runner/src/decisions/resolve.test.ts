import { defineCatalog } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { ModelResolutionError, resolveTaskModel } from "./resolve";

const m = (id: string) => ({
  id,
  api: "faux" as const,
  provider: "faux",
  baseUrl: `faux://${id}`,
  contextWindow: 1000,
  maxTokens: 100,
});
const models = defineCatalog({ big: m("big"), mid: m("mid"), small: m("small") });

describe("resolveTaskModel", () => {
  it("a model ref wins; a list is a fallback chain; tier words resolve", () => {
    expect(resolveTaskModel({ models }, { model: "mid" })).toMatchObject({
      model: { id: "mid" },
      fallbacks: [],
      via: "model",
    });
    expect(resolveTaskModel({ models }, { model: ["mid", "small"] }).fallbacks.map((x) => x.id)).toEqual(["small"]);
    expect(resolveTaskModel({ models, tiers: { max: "big", lite: "small" } }, { model: "flash" }).model.id).toBe(
      "small",
    );
  });

  it("no model: the default role, then its tier row, then the catalog's first entry", () => {
    expect(resolveTaskModel({ models, roles: { default: "mid" } }, {})).toMatchObject({
      model: { id: "mid" },
      via: "role",
    });
    expect(resolveTaskModel({ models, tiers: { pro: "big", flash: "small" } }, {})).toMatchObject({
      model: { id: "big" },
      via: "tier_table",
    });
    expect(resolveTaskModel({ models }, {})).toMatchObject({ model: { id: "big" }, via: "catalog_first" });
  });

  it("a role goes through llm-types' resolveRole, with its fallbacks and thinking preset", () => {
    const roles = { default: "big", advisor: { model: "mid", fallbacks: ["small"], thinking: "high" as const } };
    expect(resolveTaskModel({ models, roles }, { role: "advisor" })).toMatchObject({
      model: { id: "mid" },
      fallbacks: [{ id: "small" }],
      thinking: "high",
      via: "role",
    });
    expect(
      resolveTaskModel({ models, roles: { default: "big", summarize: "small" } }, { role: "helper" }),
    ).toMatchObject({ model: { id: "small" }, via: "role_fallback" });
  });

  it("an unknown ref throws a typed error", () => {
    expect(() => resolveTaskModel({ models }, { model: "nope" })).toThrow(ModelResolutionError);
  });
});
