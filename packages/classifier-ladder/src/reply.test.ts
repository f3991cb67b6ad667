import { describe, expect, it } from "vitest";
import { reply } from "../test/fixtures";
import { ClassifierLegError } from "./errors";
import {
  classifierReplyAsksAgain,
  classifierReplyEmptyAtCap,
  classifierReplyFailure,
  classifierReplyTagOnly,
  classifierReplyText,
  classifierReplyVerdictText,
} from "./reply";

describe("classifierReplyText", () => {
  it("joins the text blocks and leaves thinking out", () => {
    expect(classifierReplyText(reply({ thinking: "<block>yes</block>", text: ["<block>", "no</block>"] }))).toBe(
      "<block>no</block>",
    );
  });
});

describe("classifierReplyEmptyAtCap", () => {
  it("recognises both cap forms", () => {
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "length" }))).toBe(true);
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "error", errorKind: "length_empty" }))).toBe(true);
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "length", thinking: "long thought", text: "  " }))).toBe(true);
  });

  it("is false with text, or with another stop", () => {
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "length", text: "<block>" }))).toBe(false);
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "stop" }))).toBe(false);
    expect(classifierReplyEmptyAtCap(reply({ stopReason: "error", errorKind: "provider" }))).toBe(false);
  });
});

describe("classifierReplyTagOnly", () => {
  it("covers cap cuts, dropped streams and tool calls", () => {
    expect(classifierReplyTagOnly(reply({ stopReason: "length", text: "No" }))).toBe(true);
    expect(classifierReplyTagOnly(reply({ partialFinalized: true, text: "No" }))).toBe(true);
    expect(classifierReplyTagOnly(reply({ stopReason: "toolUse" }))).toBe(true);
    expect(classifierReplyTagOnly(reply({ toolCall: true, text: "No" }))).toBe(true);
    expect(classifierReplyTagOnly(reply({ text: "No" }))).toBe(false);
  });

  it("covers a cap cut reported as an error, and any reply stamped with a cut's errorKind", () => {
    expect(classifierReplyTagOnly(reply({ stopReason: "error", errorKind: "length_empty", text: "No" }))).toBe(true);
    // A brain that stamps the cause but forgets `partialFinalized` still cut the reply.
    expect(classifierReplyTagOnly(reply({ errorKind: "timeout", text: "No" }))).toBe(true);
  });
});

describe("classifierReplyVerdictText", () => {
  it("empties a cut reply with no tagged answer", () => {
    expect(classifierReplyVerdictText(reply({ partialFinalized: true, text: "No" }))).toBe("");
    expect(classifierReplyVerdictText(reply({ partialFinalized: true, text: "Using the <block> tag: No" }))).toBe("");
  });

  it("keeps a cut reply's tagged yes and a cut conflict, and empties a cut clean no (a prefix)", () => {
    expect(classifierReplyVerdictText(reply({ partialFinalized: true, text: "<block>no</block>" }))).toBe("");
    expect(classifierReplyVerdictText(reply({ partialFinalized: true, text: "<block>yes" }))).toBe("<block>yes");
    expect(classifierReplyVerdictText(reply({ partialFinalized: true, text: "<block>no" }))).toBe("");
    const conflict = "<block>no</block><block>yes";
    expect(classifierReplyVerdictText(reply({ stopReason: "length", text: conflict }))).toBe(conflict);
  });

  it("leaves a complete reply's text alone", () => {
    expect(classifierReplyVerdictText(reply({ text: "No" }))).toBe("No");
  });
});

describe("classifierReplyAsksAgain", () => {
  it("re-asks a missing verdict", () => {
    expect(classifierReplyAsksAgain(reply({ stopReason: "length" }))).toBe(true);
    expect(classifierReplyAsksAgain(reply({ stopReason: "error", errorKind: "length_empty" }))).toBe(true);
    expect(classifierReplyAsksAgain(reply({ partialFinalized: true, text: "No" }))).toBe(true);
    expect(classifierReplyAsksAgain(reply({ toolCall: true, stopReason: "toolUse" }))).toBe(true);
    expect(classifierReplyAsksAgain(reply({ text: "Looking at this action, it is fine." }))).toBe(true);
    expect(classifierReplyAsksAgain(reply({ thinking: "x", text: "<thinking>the answer is <block>no</block>" }))).toBe(
      true,
    );
    expect(classifierReplyAsksAgain(reply({ thinking: "it is safe, <block>no</block>" }))).toBe(true);
  });

  it("does not re-ask a conflict, a refusal, or a verdict", () => {
    expect(classifierReplyAsksAgain(reply({ text: "<block>no</block><block>yes</block>" }))).toBe(false);
    expect(classifierReplyAsksAgain(reply({ partialFinalized: true, text: "<block>no</block><block>yes" }))).toBe(
      false,
    );
    expect(classifierReplyAsksAgain(reply({ stopReason: "stop" }))).toBe(false);
    expect(classifierReplyAsksAgain(reply({ text: " \n " }))).toBe(false);
    expect(classifierReplyAsksAgain(reply({ text: "<block>no</block>" }))).toBe(false);
    expect(classifierReplyAsksAgain(reply({ text: "yes" }))).toBe(false);
  });
});

describe("classifierReplyFailure", () => {
  it("turns provider errors and aborts into leg errors", () => {
    const error = classifierReplyFailure(
      reply({ stopReason: "error", errorKind: "rate_limited", errorMessage: "429 slow down" }),
    );
    expect(error).toBeInstanceOf(ClassifierLegError);
    expect((error as ClassifierLegError).failure).toBe("error");
    expect(error!.message).toContain("429 slow down");
    expect(
      (classifierReplyFailure(reply({ stopReason: "error", errorKind: "timeout" })) as ClassifierLegError).failure,
    ).toBe("timeout");
    expect(classifierReplyFailure(reply({ stopReason: "aborted", errorKind: "aborted" }))).toBeInstanceOf(
      ClassifierLegError,
    );
  });

  it("is not a failure for the cap-cut form or an ordinary reply", () => {
    expect(classifierReplyFailure(reply({ stopReason: "error", errorKind: "length_empty" }))).toBeUndefined();
    expect(classifierReplyFailure(reply({ text: "<block>no</block>" }))).toBeUndefined();
    expect(classifierReplyFailure(reply({ stopReason: "length" }))).toBeUndefined();
  });
});
