import { describe, expect, it } from "vitest";
import { UserMessageSchema } from "./messages";
import { joinAttributed } from "./provenance";
import { attributedUserText } from "./user-text";

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

describe("joinAttributed", () => {
  it("is the inverse of attributedUserText: the same pieces come back, empty ones left out, one source merged", () => {
    const pieces = [
      { source: "compaction" as const, text: "[note] " },
      { source: "user" as const, text: "fix it" },
      { source: "compaction" as const, text: "" },
      { source: "user" as const, text: ", then ship it" },
      { source: "compaction" as const, text: " [summary]" },
    ];
    const { text, provenance } = joinAttributed(pieces);
    expect(text).toBe("[note] fix it, then ship it [summary]");
    expect(provenance).toEqual([
      { source: "compaction", chars: 7 },
      { source: "user", chars: 20 },
      { source: "compaction", chars: 10 },
    ]);
    expect(attributedUserText({ content: text, provenance }).map((p) => p.text)).toEqual([
      "[note] ",
      "fix it, then ship it",
      " [summary]",
    ]);
    expect(
      joinAttributed([
        { source: "teacher", text: "a" },
        { source: "teacher", text: "b" },
      ]),
    ).toEqual({
      text: "ab",
      provenance: "teacher",
    });
    // Nothing written: no part can say who wrote it, and nothing is the user's.
    expect(joinAttributed([{ source: "user", text: "" }])).toEqual({ text: "", provenance: "engine" });
  });
});
