import { fauxError, fauxLengthCut, fauxLoop, fauxText, fauxToolCall, type FauxResponse } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { recorder, setup } from "../../test/harness";

describe("prefix stability", () => {
  it("each request's messages are the previous one's plus what was added, in a long run with recoveries", async () => {
    const { tool } = recorder("look", { readOnly: true });
    const script: FauxResponse[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 10) script.push(fauxLengthCut("", { partialToolCall: { name: "look", rawArguments: '{"text":"cut' } }));
      if (i === 20) script.push(fauxLoop("again and again "));
      // A failed call is retried with the very same request.
      if (i === 25) script.push(fauxError("overloaded"));
      if (i === 30)
        script.push({
          content: [
            { type: "toolCall", name: "look", arguments: { text: `${i}a` } },
            { type: "toolCall", name: "look", arguments: { text: `${i}b` } },
          ],
        });
      else
        script.push(
          fauxToolCall(i % 7 === 3 ? "missing" : "look", { text: `step ${i}` }, { text: `thinking about ${i}` }),
        );
    }
    script.push({ content: [], end: { type: "stop" } }, fauxText("finished"));
    const { runner, brain } = setup(script);
    const history = [{ role: "user" as const, content: "earlier conversation" }];
    const result = await runner.runTask({
      objective: "work a long time",
      tools: [tool],
      history,
      maxTurns: 100,
      maxTokens: 500,
      systemPrompt: "sys",
    });
    expect(result.terminal).toMatchObject({ code: "completed" });
    expect(brain.calls.length).toBeGreaterThan(40);
    expect(result.stats.retries).toBe(1);
    for (let i = 1; i < brain.calls.length; i++) {
      const previous = brain.calls[i - 1]!.context;
      const current = brain.calls[i]!.context;
      expect(current.messages.slice(0, previous.messages.length)).toEqual(previous.messages);
      expect(current.systemPrompt).toBe(previous.systemPrompt);
      expect(current.tools).toEqual(previous.tools);
    }
    // And the final history is the last request plus the final answer.
    expect([...history, ...result.messages].slice(0, -1)).toEqual(
      JSON.parse(JSON.stringify(brain.calls.at(-1)!.context.messages)),
    );
  });

  it("a resumed run's first request is the parked run's last request plus what was appended", async () => {
    const look = recorder("look", { readOnly: true });
    const deploy = recorder("deploy");
    const { runner, brain } = setup(
      [fauxToolCall("look", { text: "a" }), fauxToolCall("deploy", { text: "b" }), fauxText("done")],
      { parkKey: "a-test-key-of-enough-length-000" },
    );
    const history = [{ role: "user" as const, content: "earlier" }];
    const tools = [look.tool, deploy.tool];
    const parked = await runner.runTask({
      objective: "ship",
      tools,
      history,
      permissions: { deploy: "ask" },
      systemPrompt: "sys",
    });
    expect(parked.status).toBe("parked");
    const resumed = await runner.resume(JSON.parse(JSON.stringify(parked.parked)), { decision: "approve" }, { tools });
    expect(resumed.status).toBe("completed");
    const [, beforePark, afterResume] = brain.calls.map((call) => JSON.parse(JSON.stringify(call.context)));
    expect(afterResume.messages.slice(0, beforePark.messages.length)).toEqual(beforePark.messages);
    expect(afterResume.systemPrompt).toBe(beforePark.systemPrompt);
    expect(afterResume.tools).toEqual(beforePark.tools);
    expect([...history, ...resumed.messages].slice(0, -1)).toEqual(afterResume.messages);
  });
});
