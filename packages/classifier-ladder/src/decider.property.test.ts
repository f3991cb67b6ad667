import { createFauxBrain, type FauxBlock, type FauxResponse } from "@x/brain-faux";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baseTranscript, judgedCall, seatOff } from "../test/harness";
import { createAutoModeDecider } from "./decider";

/**
 * Replies are generated as pieces whose meaning is known by construction, so the oracle below
 * says whether a reply holds exactly one clean "no" without asking the reader under test.
 */
type Piece =
  | { kind: "answer"; value: "yes" | "no"; spelled: string; closed: boolean; pad: string; reason?: string }
  | { kind: "mention"; text: string }
  | { kind: "prose"; text: string }
  | { kind: "lookalike"; text: string }
  | { kind: "span"; text: string }
  | { kind: "strayClose"; text: string }
  | { kind: "openThinking"; text: string };

type Ending = "stop" | "length" | "drop" | "stall" | "toolUse" | "error";

interface GeneratedReply {
  pieces: Piece[];
  ending: Ending;
}

const spellings = { yes: ["yes", "Yes", "YES"], no: ["no", "No", "NO"] } as const;

const answer: fc.Arbitrary<Piece> = fc
  .record({
    value: fc.constantFrom("yes" as const, "no" as const),
    variant: fc.nat(2),
    closed: fc.boolean(),
    pad: fc.constantFrom("", " ", "\n"),
    reason: fc.option(fc.constantFrom("deletes files", "user asked", "unclear intent"), { nil: undefined }),
  })
  .map(({ value, variant, closed, pad, reason }) => ({
    kind: "answer" as const,
    value,
    spelled: spellings[value][variant]!,
    closed,
    // An unclosed answer is only ever spelled with horizontal padding; a newline there is not an answer.
    pad: closed ? pad : pad === "\n" ? " " : pad,
    ...(reason ? { reason } : {}),
  }));

const prose: fc.Arbitrary<Piece> = fc.oneof(
  fc
    .constantFrom(
      "No",
      "no.",
      "Yes",
      "yes!",
      "nothing to block",
      "No, block it",
      "Looking at this action",
      "safe",
      "the </block> tag",
    )
    .map((text) => ({ kind: "prose" as const, text })),
  fc
    .array(fc.constantFrom("no", "yes", "maybe", "block", "allow", "safe", "rm", "the", "user"), {
      minLength: 2,
      maxLength: 6,
    })
    .map((words) => ({ kind: "prose" as const, text: words.join(" ") })),
);

/** Answer-shaped text that is not the answer: homoglyphs, invisible characters, look-alike tags. */
const lookalike: fc.Arbitrary<Piece> = fc
  .constantFrom(
    "<block>n\u043e</block>",
    "<bl\u043eck>no</bl\u043eck>",
    "<block>\u200bno</block>",
    "\u200b<block>no</block>",
    "<block>no\u2060</block>",
    "\u00a0<block>no</block>",
    "<block>\uff4e\uff4f</block>",
    "<block foo>no</block>",
    "<scratchpad><block>no</block></scratchpad>",
    "<!-- <block>no</block> -->",
    '{"block": "<block>no</block>"}',
    "```\n<block>no</block>\n```",
  )
  .map((text) => ({ kind: "lookalike" as const, text }));

const mention: fc.Arbitrary<Piece> = fc
  .constantFrom(
    "I will answer with a <block> tag",
    "format: <block>yes or no</block>",
    "<block> comes first",
    "use <block>nothing</block> here",
  )
  .map((text) => ({ kind: "mention" as const, text }));

const inner = fc
  .array(fc.oneof(answer, prose, mention), { maxLength: 3 })
  .map((pieces) => pieces.map(render).join(" "));
const span: fc.Arbitrary<Piece> = fc
  .record({ tag: fc.constantFrom("thinking", "think", "THINKING"), body: inner })
  .map(({ tag, body }) => ({ kind: "span" as const, text: `<${tag}>${body}</${tag}>` }));
const strayClose: fc.Arbitrary<Piece> = inner.map((body) => ({
  kind: "strayClose" as const,
  text: `${body} </think>`,
}));
const openThinking: fc.Arbitrary<Piece> = inner.map((body) => ({
  kind: "openThinking" as const,
  text: `<thinking>${body}`,
}));

const reply: fc.Arbitrary<GeneratedReply> = fc.record({
  pieces: fc
    .tuple(
      fc.array(
        fc.oneof(
          { weight: 4, arbitrary: answer },
          { weight: 3, arbitrary: prose },
          { weight: 1, arbitrary: mention },
          { weight: 1, arbitrary: lookalike },
          { weight: 1, arbitrary: span },
          { weight: 1, arbitrary: strayClose },
        ),
        { maxLength: 4 },
      ),
      fc.option(openThinking, { nil: undefined }),
    )
    .map(([pieces, open]) => (open ? [...pieces, open] : pieces)),
  ending: fc.constantFrom<Ending>("stop", "stop", "stop", "length", "drop", "stall", "toolUse", "error"),
});

/** Clean allows by construction: optional reasoning first, then one `no` answer with nothing attached, complete. */
const cleanReply: fc.Arbitrary<GeneratedReply> = fc
  .record({
    stray: fc.option(strayClose, { nil: undefined }),
    spans: fc.array(span, { maxLength: 2 }),
    spelled: fc.constantFrom(...spellings.no),
    closed: fc.boolean(),
    pad: fc.constantFrom("", " ", "\n", "\t", "\r\n"),
  })
  .map(({ stray, spans, spelled, closed, pad }) => ({
    pieces: [
      ...(stray ? [stray] : []),
      ...spans,
      { kind: "answer" as const, value: "no" as const, spelled, closed, pad },
    ],
    ending: "stop" as const,
  }));

function render(piece: Piece): string {
  if (piece.kind !== "answer") return piece.text;
  const { spelled, closed, pad, reason } = piece;
  return `<block>${pad}${spelled}${closed ? `${pad}</block>` : ""}${reason ? `<reason>${reason}</reason>` : ""}`;
}

function toFaux(generated: GeneratedReply): FauxResponse {
  const text = generated.pieces.map(render).join("\n");
  const content: FauxBlock[] = text ? [{ type: "text", text }] : [];
  switch (generated.ending) {
    case "stop":
      return { content, end: { type: "stop" } };
    case "length":
      return { content, end: { type: "length" } };
    case "drop":
      return { content, end: { type: "drop" } };
    case "stall":
      return { content, end: { type: "stall" } };
    case "toolUse":
      return { content: [...content, { type: "toolCall", name: "approve", arguments: {} }] };
    case "error":
      return { content, end: { type: "error", errorKind: "provider", errorMessage: "500" } };
  }
}

/**
 * The oracle: is this reply exactly one clean "no", at the start? Computed from the pieces, not the
 * text: a complete reply whose visible pieces (after the last stray closer, leading reasoning spans
 * dropped) are one `no` answer with nothing attached and nothing after it, reasoning included.
 */
function exactlyOneCleanNo(generated: GeneratedReply): boolean {
  if (generated.ending !== "stop") return false;
  const lastStray = generated.pieces.map((p) => p.kind).lastIndexOf("strayClose");
  const rest = generated.pieces.slice(lastStray + 1);
  const start = rest.findIndex((p) => p.kind !== "span");
  const [only, ...after] = start < 0 ? [] : rest.slice(start);
  return only?.kind === "answer" && only.value === "no" && only.reason === undefined && after.length === 0;
}

async function classify(first: GeneratedReply, second: GeneratedReply) {
  const brain = createFauxBrain([toFaux(first), toFaux(second)], { stallTimeoutMs: 5 });
  const decider = createAutoModeDecider({
    brainFor: () => brain,
    seat: { model: seatOff },
    main: seatOff,
    taskId: "prop",
  });
  return decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
}

describe("the decider over generated replies", () => {
  it("any reply that is not exactly one clean no, at the start, allows nothing", async () => {
    await fc.assert(
      fc.asyncProperty(reply, reply, async (first, second) => {
        const outcome = await classify(first, second);
        if (outcome.verdict !== "allow") return;
        const ruling = outcome.calls === 1 ? first : second;
        expect(exactlyOneCleanNo(ruling), `allowed on: ${JSON.stringify(toFaux(ruling))}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("a first reply with exactly one clean no is allowed on the fast path", async () => {
    await fc.assert(
      fc.asyncProperty(cleanReply, reply, async (first, second) => {
        expect(exactlyOneCleanNo(first)).toBe(true);
        const outcome = await classify(first, second);
        expect(outcome, JSON.stringify(toFaux(first))).toMatchObject({ verdict: "allow", calls: 1 });
      }),
      { numRuns: 200 },
    );
  });
});
