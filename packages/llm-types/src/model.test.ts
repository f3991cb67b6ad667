import { describe, expect, it } from "vitest";
import { defineModel } from "./index";
import { normalizeBaseUrl, routeIdentity, sameRoute, type Model } from "./model";
import { SchemaValidationError } from "./parse";

const base: Model = defineModel({
  id: "gpt-4.1-mini",
  api: "openai-completions",
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  contextWindow: 1_000_000,
  maxTokens: 32_768,
  cost: { input: 0.4, output: 1.6 },
});

describe("ModelSchema", () => {
  it("fills defaults", () => {
    expect(base.reasoning).toBe(false);
    expect(base.thinkingOff).toBe(true);
    expect(base.input).toEqual(["text"]);
    expect(base.cost).toEqual({ input: 0.4, output: 1.6, cacheRead: 0, cacheWrite: 0 });
  });

  it.each([
    ["an empty id", { id: "" }, "id"],
    ["a negative price", { cost: { input: -1, output: 0 } }, "cost.input"],
    ["a fractional context window", { contextWindow: 10.5 }, "contextWindow"],
    ["an unknown input kind", { input: ["audio"] }, "input[0]"],
    ["an unknown field", { temperature: 1 }, "(root)"],
    ["a non-string baseUrl", { baseUrl: 42 }, "baseUrl"],
  ])("rejects %s with an error naming the field", (_label, patch, field) => {
    let error: unknown;
    try {
      defineModel({ ...base, ...patch } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaValidationError);
    expect((error as SchemaValidationError).issues.map((i) => i.path || "(root)")).toContain(field);
    expect((error as Error).message).toMatch(/^invalid model: /);
  });
});

describe("route identity", () => {
  it.each([
    ["https://API.openai.com/v1/", "https://api.openai.com/v1"],
    ["https://api.openai.com:443/v1", "https://api.openai.com/v1"],
    ["http://localhost:80/v1//", "http://localhost/v1"],
    ["  http://127.0.0.1:8000/v1 ", "http://127.0.0.1:8000/v1"],
    ["faux://local/", "faux://local"],
  ])("normalises %s", (raw, expected) => {
    expect(normalizeBaseUrl(raw)).toBe(expected);
  });

  it("keeps ports, paths and hosts that differ apart", () => {
    expect(normalizeBaseUrl("http://127.0.0.1:8000/v1")).not.toBe(normalizeBaseUrl("http://127.0.0.1:8001/v1"));
    expect(sameRoute(base, { ...base, baseUrl: "https://api.openai.com/v2" })).toBe(false);
  });

  it("treats the same endpoint spelled differently as one route", () => {
    expect(sameRoute(base, { ...base, baseUrl: "https://API.OPENAI.com:443/v1/" })).toBe(true);
  });

  it("separates entries that share a wire id but differ in provider, api or endpoint", () => {
    expect(sameRoute(base, { ...base, provider: "openrouter" })).toBe(false);
    expect(sameRoute(base, { ...base, api: "anthropic-messages" })).toBe(false);
    expect(sameRoute(base, { ...base, id: "gpt-4.1" })).toBe(false);
  });

  it("throws on a non-string baseUrl", () => {
    expect(() => routeIdentity({ ...base, baseUrl: undefined })).toThrow(TypeError);
    expect(() => routeIdentity({ ...base, baseUrl: { href: "x" } })).toThrow(/baseUrl must be a string/);
    expect(() => normalizeBaseUrl(null)).toThrow(/got null/);
  });
});
