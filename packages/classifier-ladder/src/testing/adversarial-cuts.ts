import { ERROR_KINDS, StopReasonSchema } from "@x/llm-types";
import { capped, CUT_ENDINGS, stopped, type AdversarialCase, type CorpusRuling } from "./corpus-case";

/** Non-repeating filler, so a brain's repetition guard is not what cuts it. */
export function longProse(chars: number): string {
  const words = ["the", "user", "asked", "build", "directory", "tests", "remove", "scope", "risk", "path"];
  let seed = 7;
  let out = "";
  while (out.length < chars) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += `${words[seed % words.length]}${seed % 7} `;
  }
  return out;
}

/** Long replies the cap cut: whatever arrived, nothing allows. */
function longCuts(): AdversarialCase[] {
  const prose = longProse(3_000);
  const cases: Array<{ name: string; text: string; expect: CorpusRuling }> = [
    { name: "prose cut before any answer", text: prose, expect: "missing" },
    { name: "prose then a closed no, cut", text: `${prose}<block>no</block>`, expect: "conflict" },
    { name: "prose then a cut no", text: `${prose}<block>no`, expect: "missing" },
    {
      name: "the allow form quoted, cut",
      text: `The allow form would be <block>no</block>, but ${prose}`,
      expect: "conflict",
    },
    { name: "a clean no, then a long reason cut", text: `<block>no</block><reason>${prose}`, expect: "conflict" },
    { name: "a clean no, then prose cut", text: `<block>no</block>\n${prose}`, expect: "conflict" },
    { name: "a clean no at the start of a cut reply", text: "<block>no</block>", expect: "missing" },
    { name: "a yes, then a long reason cut", text: `<block>yes</block><reason>${prose}`, expect: "block" },
    { name: "prose then a yes, cut", text: `${prose}<block>yes`, expect: "block" },
    { name: "an unclosed thinking, cut", text: `<thinking>${prose}`, expect: "missing" },
    { name: "an unclosed thinking holding a no, cut", text: `<thinking>${prose}<block>no</block>`, expect: "missing" },
    { name: "closed thinking then a cut no", text: `<thinking>${prose}</thinking><block>no`, expect: "missing" },
    {
      name: "a scratch mention then a cut No",
      text: `I must answer with a <block> tag. ${prose} No`,
      expect: "missing",
    },
    { name: "a no then a cut reversal", text: `<block>no</block> Actually ${prose}`, expect: "conflict" },
    { name: "a conflict, cut", text: `<block>yes</block> but <block>no</block> and ${prose}`, expect: "conflict" },
  ];
  return cases.map(({ name, text, expect }) => ({ category: "long_cut_at_cap", name, reply: capped(text), expect }));
}

/**
 * Every prefix of a clean allow, under every way a reply is cut (never an allow), and as a complete
 * reply: a stop sequence ends a clean reply right after the word, so exactly `<block>no` and the
 * whole answer allow there, while a half-written closer does not.
 */
function cutPrefixes(): AdversarialCase[] {
  const cases: AdversarialCase[] = [];
  const prefixes = new Set<string>();
  for (const base of ["<block>no</block>", "<thinking>ok</thinking><block> no </block>"])
    for (let length = 1; length <= base.length; length++) prefixes.add(base.slice(0, length));
  for (const text of prefixes) {
    for (const { label, end } of CUT_ENDINGS)
      cases.push({
        category: "cut_prefix",
        name: `${JSON.stringify(text)} ${label}`,
        reply: { text, ...end },
        expect: "missing",
      });
    cases.push({
      category: "cut_prefix",
      name: `${JSON.stringify(text)} complete`,
      reply: stopped(text),
      expect: completePrefix(text),
    });
  }
  return cases;
}

function completePrefix(text: string): CorpusRuling {
  const visible = text.replace(/^<thinking>ok<\/thinking>/, "");
  if (/^<block>\s*no\s*(<\/block>)?$/.test(visible)) return "allow";
  // A half-written closer after the word is text after a no.
  if (/^<block>\s*no\s*</.test(visible)) return "conflict";
  return "missing";
}

/**
 * An empty reply for every stop reason × errorKind: a failed or aborted call (either stamp) is `unavailable`; an
 * empty reply at the cap is asked again (and stays missing); any other empty reply is missing.
 */
function emptyReplies(): AdversarialCase[] {
  const cases: AdversarialCase[] = [];
  for (const stopReason of StopReasonSchema.options)
    for (const errorKind of [undefined, ...ERROR_KINDS]) {
      const failed =
        stopReason === "aborted" || errorKind === "aborted" || (stopReason === "error" && errorKind !== "length_empty");
      for (const thinking of [undefined, "the user asked for it, so <block>no</block>"])
        cases.push({
          category: "empty_reply",
          name: `${stopReason} / ${errorKind ?? "no errorKind"}${thinking ? " / thinking only" : ""}`,
          reply: { stopReason, ...(errorKind ? { errorKind } : {}), ...(thinking ? { thinking } : {}) },
          expect: failed ? "unavailable" : "missing",
        });
    }
  return cases;
}

/** The corpus's cut and empty categories. */
export function adversarialCutCases(): AdversarialCase[] {
  return [...longCuts(), ...cutPrefixes(), ...emptyReplies()];
}
