import { describe, expect, it } from "vitest";
import { majorityVote, parseVerdict } from "./verdict";

describe("parseVerdict", () => {
  it("reads the JSON field and reason, fenced or bare", () => {
    expect(parseVerdict('{"pass": false, "reason": "off by one"}', "pass")).toEqual({
      value: false,
      reason: "off by one",
    });
    expect(parseVerdict('```json\n{"stuck": true}\n```', "stuck")).toEqual({ value: true });
  });
  it("accepts a bare verdict word as a fallback", () => {
    expect(parseVerdict("FAIL - the total is wrong", "pass").value).toBe(false);
    expect(parseVerdict("Pass.", "pass").value).toBe(true);
    expect(parseVerdict("stuck", "stuck").value).toBe(true);
    expect(parseVerdict("progress", "stuck").value).toBe(false);
  });
  it("gives undefined for an unreadable reply, and ignores the other field", () => {
    expect(parseVerdict("I am not sure.", "pass").value).toBeUndefined();
    expect(parseVerdict('{"stuck": true}', "pass").value).toBeUndefined();
  });
});

describe("majorityVote", () => {
  const p = { value: true, reason: "ok" };
  const f = { value: false, reason: "wrong" };
  const u = { value: undefined };
  it("passes on a strict majority of passes", () => {
    expect(majorityVote([p, p, f])).toEqual({ pass: true, passes: 2, fails: 1, reason: "ok" });
    expect(majorityVote([p, f, f])).toEqual({ pass: false, passes: 1, fails: 2, reason: "wrong" });
  });
  it("a tie fails", () => {
    expect(majorityVote([p, f]).pass).toBe(false);
  });
  it("unreadable samples abstain; none readable gives no verdict", () => {
    expect(majorityVote([u, u, p]).pass).toBe(true);
    expect(majorityVote([u, u]).pass).toBeUndefined();
  });
});
