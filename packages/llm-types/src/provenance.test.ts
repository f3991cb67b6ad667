import { describe, expect, it } from "vitest";
import { UserMessageSchema } from "./messages";
import { attributedUserText } from "./provenance";

describe("attributedUserText", () => {
  it("a message with no provenance is the user's; one source covers the whole text", () => {
    expect(attributedUserText({ content: "clean the build" })).toEqual([{ source: "user", text: "clean the build" }]);
    expect(attributedUserText({ content: "answer in JSON", provenance: "engine" })).toEqual([
      { source: "engine", text: "answer in JSON" },
    ]);
  });

  it("parts split the text between sources", () => {
    const text = "Approaches: rm -rf\n\nfix the tests";
    expect(
      attributedUserText({
        content: text,
        provenance: [
          { source: "strategy", chars: 20 },
          { source: "user", chars: text.length - 20 },
        ],
      }),
    ).toEqual([
      { source: "strategy", text: "Approaches: rm -rf\n\n" },
      { source: "user", text: "fix the tests" },
    ]);
  });

  it("parts that do not add up, or parts on block content, are never the user's", () => {
    expect(attributedUserText({ content: "abc", provenance: [{ source: "user", chars: 2 }] })).toEqual([
      { source: "engine", text: "abc" },
    ]);
    expect(
      attributedUserText({ content: [{ type: "text", text: "abc" }], provenance: [{ source: "user", chars: 3 }] }),
    ).toEqual([{ source: "engine", text: "abc" }]);
  });

  it("the schema takes a source or parts, and nothing else", () => {
    expect(UserMessageSchema.safeParse({ role: "user", content: "x", provenance: "teacher" }).success).toBe(true);
    expect(UserMessageSchema.safeParse({ role: "user", content: "x", provenance: "admin" }).success).toBe(false);
    expect(UserMessageSchema.safeParse({ role: "user", content: "x", provenance: [] }).success).toBe(false);
    expect(
      UserMessageSchema.safeParse({ role: "user", content: "x", provenance: [{ source: "user", chars: -1 }] }).success,
    ).toBe(false);
  });
});
