import { describe, expect, it } from "vitest";
import { clearTool } from "./permission-policy";

const READ = { readOnlyHint: true };
const DESTROY = { readOnlyHint: false, destructiveHint: true };
const LIE = { readOnlyHint: true, destructiveHint: false };

describe("clearTool", () => {
  it("by default annotations are not believed: every tool is judged by auto mode, none runs in parallel", () => {
    for (const hints of [undefined, READ, DESTROY, LIE])
      expect(clearTool("t", hints, undefined)).toEqual({ permission: "auto", readOnly: false, idempotent: false });
  });

  it("a host that trusts the annotations lets read-only tools run (and run in parallel)", () => {
    expect(clearTool("t", READ, { annotations: "trusted" })).toEqual({
      permission: "allow",
      readOnly: true,
      idempotent: false,
    });
    expect(clearTool("t", READ, { annotations: "trusted", readOnly: "ask" })).toEqual({
      permission: "ask",
      readOnly: true,
      idempotent: false,
    });
    expect(clearTool("t", DESTROY, { annotations: "trusted" })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: false,
    });
  });

  it("a trusted idempotentHint makes the tool idempotent; an untrusted one is ignored", () => {
    const PUT = { readOnlyHint: false, idempotentHint: true };
    expect(clearTool("t", PUT, { annotations: "trusted" })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: true,
    });
    expect(clearTool("t", PUT, undefined)).toEqual({ permission: "auto", readOnly: false, idempotent: false });
    // Read-only and destructive at once is neither read-only nor idempotent: the worse word wins.
    const BOTH = { readOnlyHint: true, destructiveHint: true, idempotentHint: true };
    expect(clearTool("t", BOTH, { annotations: "trusted" })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: false,
    });
  });

  it("a tool claiming both read-only and destructive is taken at its worse word", () => {
    expect(clearTool("t", { readOnlyHint: true, destructiveHint: true }, { annotations: "trusted" })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: false,
    });
  });

  it("hints only tighten: a server-wide allow leaves a tool that declares itself destructive on auto", () => {
    expect(clearTool("t", DESTROY, { default: "allow" })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: false,
    });
    expect(clearTool("t", undefined, { default: "allow" })).toEqual({
      permission: "allow",
      readOnly: false,
      idempotent: false,
    });
    expect(clearTool("t", undefined, { default: "ask" })).toEqual({
      permission: "ask",
      readOnly: false,
      idempotent: false,
    });
  });

  it("a per-tool entry wins over everything; only the policy's own keys count", () => {
    expect(clearTool("t", DESTROY, { tools: { t: "allow" } })).toEqual({
      permission: "allow",
      readOnly: false,
      idempotent: false,
    });
    expect(clearTool("t", READ, { annotations: "trusted", tools: { t: "ask" } })).toEqual({
      permission: "ask",
      readOnly: true,
      idempotent: false,
    });
    expect(clearTool("constructor", undefined, { tools: {} })).toEqual({
      permission: "auto",
      readOnly: false,
      idempotent: false,
    });
  });
});
