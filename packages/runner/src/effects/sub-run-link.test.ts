import { describe, expect, it } from "vitest";
import type { ToolContext } from "../vocabulary/define-tool";
import type { RunContext } from "../state/run-context";
import { linkedToolContext, linkOf, type SubRunLink } from "./sub-run-link";

/** A fresh context, as the runner makes one per call. */
const bare = (): ToolContext => ({
  signal: new AbortController().signal,
  runId: "run-1",
  toolCallId: "call-1",
  toolName: "delegate",
  idempotencyKey: "run-1:call-1",
  progress: () => undefined,
  elicit: () => Promise.resolve({ action: "decline" }),
});
const link: SubRunLink = {
  parent: {} as RunContext,
  toolCall: { type: "toolCall", id: "call-1", name: "delegate", arguments: {} },
  toolSpan: "span-1",
  readOnly: false,
};

describe("the sub-run link on a tool's context", () => {
  it("rides on the context the runner hands to execute, and on a copy the tool spreads", () => {
    const made = bare();
    const context = linkedToolContext(made, link);
    expect(context).toBe(made);
    expect(linkOf(context)).toBe(link);
    expect(linkOf({ ...context, toolName: "renamed" })).toBe(link);
  });

  it("is absent from a context host code made itself, and from the public fields", () => {
    expect(linkOf(bare())).toBeUndefined();
    expect(linkOf(linkedToolContext(bare(), undefined))).toBeUndefined();
    expect(Object.keys(linkedToolContext(bare(), link))).toEqual(Object.keys(bare()));
    expect(JSON.stringify(linkedToolContext(bare(), link))).toBe(JSON.stringify(bare()));
  });
});
