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

  it("ignores case and whitespace around the word", () => {
    for (const text of [
      "<BLOCK>NO</BLOCK>",
      "<Block> No </Block>",
      "  <block>\nno\n</block>  ",
      "<block>no</block >",
      "\n\n<block>no</block>\n",
    ])
      expect(read(text)).toEqual(allow);
  });

  it("in a complete reply accepts a closing tag cut anywhere (a stop sequence)", () => {
    for (const text of ["<block>no", "<block>no ", "<block>no<", "<block>no</", "<block>no</bl", "<block>no</block"])
      expect(read(text)).toEqual(allow);
    expect(read("<block>yes</blo")).toMatchObject({ block: true });
  });

  it("in a cut reply allows only on a closed no, while an unclosed yes still blocks", () => {
    for (const text of ["<block>no", "<block>no ", "<block>no<", "<block>no</bl"])
      expect(read(text, false)).toEqual(missing);
    expect(read("<block>no</block>", false)).toEqual(allow);
    expect(read("<block>yes", false)).toMatchObject({ block: true });
    expect(read("<block>yes</blo", false)).toMatchObject({ block: true });
  });

  it("accepts an unclosed answer followed directly by its reason", () => {
    expect(read("<block>yes <reason>exfiltrates keys</reason>")).toEqual({
      kind: "verdict",
      block: true,
      form: "tag",
      reason: "exfiltrates keys",
    });
    expect(read("<block>yes</block><reason>cut mid-reas")).toMatchObject({ reason: "cut mid-reas" });
  });

  it("a <block> mention that is not followed by an answer is not an answer", () => {
    expect(read("I will reply with a <block> tag. No")).toEqual(missing);
    expect(read("The format is <block>yes or no</block>")).toEqual(missing);
    expect(read("<block>nope</block>")).toEqual(missing);
    expect(read("<block>no, wait")).toEqual(missing);
    expect(read("<block>No.</block>")).toEqual(missing);
    expect(read("<block>\nno", false)).toEqual(missing);
  });

  it("an unclosed answer with prose after it is not an answer", () => {
    expect(read("<block>no this looks fine")).toEqual(missing);
  });

  it("tells conflict apart from missing", () => {
    expect(read("<block>no</block> on reflection <block>yes</block>")).toEqual(conflict);
    expect(read("<block>yes</block><block>no</block>")).toEqual(conflict);
    expect(read("<block>no</block><block>no</block>")).toEqual(conflict);
    expect(read("Looking at this action, it seems fine.")).toEqual(missing);
    expect(read("")).toEqual(missing);
  });

  it("several answers that all block read as block", () => {
    expect(read("<block>yes</block><reason>one</reason> <block>yes</block>")).toEqual({
      kind: "verdict",
      block: true,
      form: "tag",
      reason: "one",
    });
  });

  it("strips thinking, closed or cut, before reading", () => {
    expect(read("<thinking>maybe <block>yes</block></thinking><block>no</block>")).toEqual(allow);
    expect(read("<thinking>it is fine, <block>no</block>")).toEqual(missing);
    expect(read("<think>x</think><block>no</block>")).toEqual(allow);
    expect(read("<thinking>unsure</thinking>")).toEqual(missing);
  });

  it("reads the bare answer only when the whole visible text is the word, and only when allowed", () => {
    expect(read("No")).toEqual({ kind: "verdict", block: false, form: "bare" });
    expect(read(" yes. ")).toEqual({ kind: "verdict", block: true, form: "bare" });
    expect(read("No", false)).toEqual(missing);
    expect(read("No, this must be blocked")).toEqual(missing);
    expect(read("<thinking>hmm</thinking>no")).toEqual({ kind: "verdict", block: false, form: "bare" });
  });

  it("accepts trailing text after a closed no, and preamble before it", () => {
    expect(read("<block>no</block>\nThe command only lists files.")).toEqual(allow);
    expect(read("Reviewing the call.\n<block>no</block>")).toEqual(allow);
  });

  it("stays fast on a reply made of thousands of tag mentions", () => {
    expect(read("<block> maybe ".repeat(5_000))).toEqual(missing);
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
  });
});
