import { createFauxBrain, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { lendMessages } from "./lent-messages";
import { createMemoryParkLedger, createRunner } from "../index";
import { answered, main, recorder } from "../../test/harness";

const user = (text: string): Message => ({ role: "user", content: text });

/**
 * A runner whose brain answers with two tool calls, then text, and notes for every call the
 * messages array it was handed and a copy of its entries at that moment.
 */
function noting(borrowsContext: boolean) {
  const seen: Array<{ array: Message[]; entries: Message[] }> = [];
  const respond = ({ context, callIndex }: FauxRequestContext) => {
    // The entries as they are now, less the turns' wall-clock timestamps (two runs never share those).
    const entries = JSON.parse(
      JSON.stringify(context.messages, (key, value) => (key === "timestamp" ? undefined : value)),
    );
    seen.push({ array: context.messages, entries });
    const turn = context.messages.filter((m) => m.role === "toolResult").length;
    return turn < 2 ? fauxToolCall("echo", { text: `t${callIndex}` }, { id: `c${callIndex}` }) : fauxText("done");
  };
  const brain = createFauxBrain(respond, { borrowsContext, recordCalls: false });
  const runner = createRunner({ brains: [brain], models: { main }, parkLedger: createMemoryParkLedger() });
  return { runner, seen, tools: [recorder().tool] };
}

describe("lent messages", () => {
  it("a borrowing brain is lent one array per run, grown between calls; each call sees what a copy holds", async () => {
    const history = [user("earlier"), answered("earlier answer")];
    const lending = noting(true);
    const copying = noting(false);
    for (const { runner, tools } of [lending, copying]) {
      const result = await runner.runTask({ objective: "go", tools, history });
      expect(result.status).toBe("completed");
    }
    expect(lending.seen).toHaveLength(3);
    expect(new Set(lending.seen.map((call) => call.array)).size).toBe(1);
    expect(lending.seen.map((call) => call.entries)).toEqual(copying.seen.map((call) => call.entries));
    expect(lending.seen.map((call) => call.entries.length)).toEqual([3, 5, 7]);
  });

  it("a brain that does not borrow gets an array of its own for every call", async () => {
    const copying = noting(false);
    await copying.runner.runTask({ objective: "go", tools: copying.tools });
    expect(new Set(copying.seen.map((call) => call.array)).size).toBe(3);
  });

  it("a later run of one history is lent the array an earlier one finished with, holding only its own", async () => {
    const lending = noting(true);
    const copying = noting(false);
    const history = [user("earlier"), answered("earlier answer")];
    for (const { runner, tools } of [lending, copying]) {
      await runner.runTask({ objective: "one", tools, history });
      await runner.runTask({ objective: "two", tools, history });
    }
    expect(lending.seen[3]!.array).toBe(lending.seen[0]!.array);
    expect(lending.seen.map((call) => call.entries)).toEqual(copying.seen.map((call) => call.entries));
    expect(lending.seen[3]!.entries.map((m) => (m.role === "user" ? m.content : m.role))).toEqual([
      "earlier",
      "assistant",
      "two",
    ]);
  });

  it("runs of one history at the same time are never lent the same array", async () => {
    const lending = noting(true);
    const history = [user("earlier"), answered("earlier answer")];
    await lending.runner.runTask({ objective: "warm", tools: lending.tools, history });
    const runs = ["a", "b", "c"].map((objective) =>
      lending.runner.runTask({ objective, tools: lending.tools, history }),
    );
    await Promise.all(runs);
    const byRun = new Map<string, Set<Message[]>>();
    for (const call of lending.seen.slice(3)) {
      const asked = call.entries[2]!;
      const objective = asked.role === "user" && typeof asked.content === "string" ? asked.content : "";
      byRun.set(objective, (byRun.get(objective) ?? new Set()).add(call.array));
    }
    expect([...byRun.keys()].sort()).toEqual(["a", "b", "c"]);
    const arrays = [...byRun.values()].map((set) => [...set]);
    expect(arrays.every((one) => one.length === 1)).toBe(true);
    expect(new Set(arrays.flat()).size).toBe(3);
  });

  it("a run's messages replaced rather than appended to make a new array, not a grown one", () => {
    const view = { entries: [], view: [user("h")], size: { chars: 0, images: 0 }, lastReport: -1 } as const;
    const history = { ...view, sinceReport: view.size };
    const same = (own: readonly Message[]) => own;
    const a = user("a");
    const lent = lendMessages(undefined, history, [a], same);
    const grown = lendMessages(lent, history, [a, user("b")], same);
    expect(grown.messages).toBe(lent.messages);
    expect(grown.messages.map((m) => m.content)).toEqual(["h", "a", "b"]);
    const replaced = lendMessages(grown, history, [user("x"), user("b")], same);
    expect(replaced.messages).not.toBe(lent.messages);
    expect(replaced.messages.map((m) => m.content)).toEqual(["h", "x", "b"]);
    const otherHistory = { ...history, view: [user("other")] };
    expect(lendMessages(replaced, otherHistory, [user("x"), user("b")], same).messages[0]!.content).toBe("other");
  });
});
