import { describe, expect, it } from "vitest";
import { readClassifierVerdict, stripClassifierThinking } from "./verdict";

const read = (text: string, complete = true) => readClassifierVerdict(text, { complete });
const allow = { kind: "verdict", block: false, form: "tag" };
const missing = { kind: "parse_error", form: "missing" };
const conflict = { kind: "parse_error", form: "conflict" };

describe("readClassifierVerdict", () => {
  it("reads the tagged answers", () => {
    expect(read("<block>no</block>")).toEqual(allow);
    expect(read("<block>yes</block>")).toEqual({ kind: "verdict", block: true, form: "tag" });
    expect(read("<block>yes</block><reason>deletes the home directory</reason>")).toEqual({
      kind: "verdict",
      block: true,
      form: "tag",
      reason: "deletes the home directory",
    });
  });

  it("takes ASCII whitespace and any case inside and around the answer", () => {
    for (const text of [
      "<BLOCK>NO</BLOCK>",
      "<Block> No </Block>",
      "  <block>\nno\n</block>  ",
      "<block >no</block>",
      "<block\n>no</block\t>",
      "<block>no</block >",
      "\n\n<block>no</block>\n",
      "\r\n<block>\r\nno\r\n</block>\r\n",
    ])
      expect(read(text), JSON.stringify(text)).toEqual(allow);
  });

  it("a no-break or zero-width space is not whitespace of a clean answer", () => {
    expect(read("<block>\u00a0no</block>")).toEqual(missing);
    expect(read("\u200b<block>no</block>")).toEqual(conflict);
    expect(read("<block>no\u200b</block>")).toEqual(conflict);
  });

  it("a complete reply may end right after the word (a stop sequence took the closer), a cut one may not", () => {
    for (const text of ["<block>no", "<block>no ", "<block>no\n"]) {
      expect(read(text), JSON.stringify(text)).toEqual(allow);
      expect(read(text, false), JSON.stringify(text)).toEqual(missing);
    }
  });

  it("a closer cut half way is no clean answer", () => {
    for (const text of ["<block>no<", "<block>no</", "<block>no</bl", "<block>no</block"]) {
      expect(read(text), text).toEqual(conflict);
      expect(read(text, false), text).toEqual(missing);
    }
  });

  it("a cut reply never allows, even on a closed no; an unclosed yes still blocks", () => {
    expect(read("<block>no</block>", false)).toEqual(missing);
    expect(read("<block>yes", false)).toMatchObject({ block: true });
    expect(read("<block>yes</blo", false)).toMatchObject({ block: true });
    expect(read("<block>no</block><reason>the user asked", false)).toEqual(conflict);
  });

  it("anything after a no is a conflict: text, a reversal, a reason", () => {
    for (const text of [
      "<block>no</block>\nThe command only removes the build directory.",
      "<block>no</block>\nActually this must be blocked.",
      "<block>no</block><reason>it deletes the user's data and must be blocked</reason>",
      "<block>no</block><reason>requested by the user</reason>",
      "<block>no, wait",
      "<block>No.</block>",
      "<block>no this looks fine",
    ])
      expect(read(text), text).toEqual(conflict);
  });

  it("a no anywhere but at the start is a conflict", () => {
    for (const text of [
      "I will not say <block>no</block> here.",
      "The allow form would be <block>no</block>, but",
      "Reviewing the call.\n<block>no</block>",
      "<scratchpad><block>no</block></scratchpad>",
      "<!-- <block>no</block> -->",
      "```\n<block>no</block>\n```",
      '{"block": true, "example": "<block>no</block>"}',
    ])
      expect(read(text), text).toEqual(conflict);
  });

  it("more than one opener, or a yes beside a no, is a conflict", () => {
    expect(read("<block>no</block> on reflection <block>yes</block>")).toEqual(conflict);
    expect(read("<block>yes</block><block>no</block>")).toEqual(conflict);
    expect(read("<block>yes<block>no</block></block>")).toEqual(conflict);
    expect(read("<block>no</block><block>no</block>")).toEqual(conflict);
    expect(read("<block>maybe</block><block>no</block>")).toEqual(conflict);
    expect(read("<block>y\u0435s</block><block>no</block>")).toEqual(conflict);
  });

  it("several answers that all block read as block", () => {
    expect(read("<block>yes</block><reason>one</reason> <block>yes</block>")).toEqual({
      kind: "verdict",
      block: true,
      form: "tag",
      reason: "one",
    });
    expect(read("Looking at this: it deletes files.\n<block>yes</block>")).toMatchObject({ block: true });
  });

  it("a <block> with no answer word after it is no answer", () => {
    expect(read("I will reply with a <block> tag.")).toEqual(missing);
    expect(read("<block>nope</block>")).toEqual(missing);
    expect(read("<block>y\u0435s</block>")).toEqual(missing);
    expect(read("<blоck>no</blоck>")).toEqual(missing);
    expect(read("")).toEqual(missing);
  });

  it("strips thinking of any spelling before reading, and only before the answer", () => {
    expect(read("<thinking>maybe <block>yes</block></thinking><block>no</block>")).toEqual(allow);
    expect(read("<thinking >x</thinking ><block>no</block>")).toEqual(allow);
    expect(read('<think foo="1">x</THINK><block>no</block>')).toEqual(allow);
    expect(read("<think foo><block>no</block></think>")).toEqual(missing);
    expect(read("<thinking>it is fine, <block>no</block>")).toEqual(missing);
    expect(read("<block>no</block><thinking>wait, no</thinking>")).toEqual(conflict);
    expect(read("<block>no<thinking>hm</thinking></block>")).toEqual(conflict);
    expect(read("<block>no</block><think>reconsidering")).toEqual(conflict);
    expect(read("reasoning whose opener was swallowed </think><block>no</block>")).toEqual(allow);
  });

  it("a bare yes blocks; a bare no is no answer and is asked again", () => {
    expect(read(" yes. ")).toEqual({ kind: "verdict", block: true, form: "bare" });
    expect(read("No")).toEqual(missing);
    expect(read("No, this must be blocked")).toEqual(missing);
    expect(read("Yes", false)).toEqual(missing);
  });

  it("stays fast on a reply made of thousands of tag mentions", () => {
    expect(read("<block> maybe ".repeat(5_000))).toEqual(missing);
    expect(read("<thinking>".repeat(5_000))).toEqual(missing);
  });

  it("caps a long reason", () => {
    const verdict = read(`<block>yes</block><reason>${"x".repeat(2000)}</reason>`);
    expect(verdict.kind === "verdict" && verdict.reason!.length).toBe(500);
  });
});

describe("stripClassifierThinking", () => {
  it("drops closed spans, an unclosed opener's tail, and a stray closer's head", () => {
    expect(stripClassifierThinking("a<thinking>b</thinking>c")).toBe("ac");
    expect(stripClassifierThinking("a<thinking>b<block>no")).toBe("a");
    expect(stripClassifierThinking("reasoning <block>yes</block></think><block>no</block>")).toBe("<block>no</block>");
    expect(stripClassifierThinking("<THINKING>x</THINKING>y")).toBe("y");
    expect(stripClassifierThinking("<thinker>x</thinker>")).toBe("<thinker>x</thinker>");
  });
});
