import {
  createFauxBrain,
  fauxDelay,
  fauxModel,
  fauxRawToolCall,
  fauxText,
  fauxToolCall,
  type FauxResponse,
  type FauxScriptItem,
} from "@x/brain-faux";
import type { Brain, EngineNotice } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { permissionFor } from "../decisions/permission";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { createRunner } from "../entry/runner";
import type { Approver, Permission, RunnerDeps } from "../vocabulary/types";
import { fakeClock, main, recorder } from "../../test/harness";

// Adversarial: every way a gated call could slip through. A call with permission `auto` runs only
// on the classifier's clean allow or a person's approve; anything else ends with the call not run.

const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });
const ALLOW = fauxText("<block>no</block>");

function gated(mainScript: FauxScriptItem[], clsScript: FauxScriptItem[] | Brain, deps: Partial<RunnerDeps> = {}) {
  const brain = createFauxBrain(mainScript);
  const classifier = Array.isArray(clsScript) ? createFauxBrain(clsScript, { api: "faux-cls" }) : clsScript;
  const notices: EngineNotice[] = [];
  const runner = createRunner({
    brains: [brain, classifier],
    models: { main, cls },
    roles: { default: "main", classifier: "cls" },
    clock: fakeClock(),
    onNotice: (n) => notices.push(n),
    ...deps,
  });
  return { runner, brain, classifier, notices };
}

describe("malformed or truncated arguments never run", () => {
  const malformed: Array<[string, FauxResponse]> = [
    ["malformed JSON", fauxRawToolCall("shell", '{"text": "rm -rf /"')],
    ["JSON that is not an object", fauxRawToolCall("shell", '["rm -rf /"]')],
    ["arguments off the schema", fauxToolCall("shell", { text: 7 })],
  ];
  for (const permission of ["allow", "ask", "auto", "deny"] as const satisfies readonly Permission[]) {
    for (const [name, call] of malformed) {
      it(`${name}, permission ${permission}: not run, neither the classifier nor the approver is asked`, async () => {
        const { tool, calls } = recorder("shell");
        const asked: string[] = [];
        const classifier = createFauxBrain([ALLOW], { api: "faux-cls" });
        const { runner } = gated([call, fauxText("gave up")], classifier, {
          approver: async (request) => {
            asked.push(request.kind);
            return { decision: "approve" };
          },
        });
        const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: permission });
        expect(calls).toEqual([]);
        expect(asked).toEqual([]);
        expect(classifier.calls).toHaveLength(0);
        expect(result.status).toBe("completed");
        expect(result.messages[2]).toMatchObject({ role: "toolResult", isError: true });
      });
    }
  }

  it("on resume: a malformed call after the approved one in the parked turn does not run", async () => {
    const look = recorder("look");
    const deploy = recorder("deploy");
    const turn: FauxResponse = {
      content: [
        { type: "toolCall", name: "deploy", arguments: { text: "prod" } },
        { type: "toolCall", name: "look", rawArguments: '{"text": "after"' },
      ],
    };
    const { runner } = gated([turn, fauxText("done")], [], {
      parkKey: "a-test-key-of-enough-length-000",
      parkLedger: createMemoryParkLedger(),
    });
    const parked = await runner.runTask({
      objective: "x",
      tools: [look.tool, deploy.tool],
      permissions: { deploy: "ask" },
    });
    expect(parked.status).toBe("parked");
    const resumed = await runner.resume(parked.parked, { decision: "approve" }, { tools: [look.tool, deploy.tool] });
    expect(deploy.calls).toEqual([{ text: "prod" }]);
    expect(look.calls).toEqual([]);
    expect(resumed.messages.filter((m) => m.role === "toolResult").at(-1)).toMatchObject({
      toolName: "look",
      isError: true,
      details: { error: "malformed_json" },
    });
  });
});

describe("the approved call on resume is checked again", () => {
  it("against the schema of the tool given to resume: arguments it refuses do not run", async () => {
    const loose = recorder("deploy");
    const strictCalls: unknown[] = [];
    const strict = defineTool({
      name: "deploy",
      description: "",
      input: z.object({ text: z.enum(["staging"]) }),
      execute: (args) => (strictCalls.push(args), "ran"),
    });
    const { runner } = gated([fauxToolCall("deploy", { text: "prod" }), fauxText("done")], [], {
      parkKey: "a-test-key-of-enough-length-000",
      parkLedger: createMemoryParkLedger(),
    });
    const parked = await runner.runTask({ objective: "x", tools: [loose.tool], defaultPermission: "ask" });
    const resumed = await runner.resume(parked.parked, { decision: "approve" }, { tools: [strict] });
    expect(strictCalls).toEqual([]);
    expect(loose.calls).toEqual([]);
    expect(resumed.messages.find((m) => m.role === "toolResult")).toMatchObject({
      isError: true,
      details: { error: "invalid_arguments" },
    });
  });
});

describe("permissionFor", () => {
  it("reads only the map's own keys: a tool named like an Object.prototype member keeps the spec default", () => {
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
      expect(permissionFor({ permissions: {}, defaultPermission: "ask" }, { name }), name).toBe("ask");
      expect(permissionFor({ permissions: { other: "allow" } }, { name }), name).toBe("allow");
    }
    expect(
      permissionFor(
        { permissions: { deploy: "auto" }, defaultPermission: "ask" },
        { name: "deploy", permission: "allow" },
      ),
    ).toBe("auto");
  });

  it("a value outside the closed set is `ask`: a person decides", () => {
    expect(permissionFor({}, { name: "x", permission: "Auto" as Permission })).toBe("ask");
    expect(permissionFor({}, { name: "x", permission: "allow " as Permission })).toBe("ask");
  });

  it("a tool named `constructor` under defaultPermission ask parks instead of reaching the classifier", async () => {
    const { tool, calls } = recorder("constructor");
    const classifier = createFauxBrain([ALLOW], { api: "faux-cls" });
    const { runner } = gated([fauxToolCall("constructor", { text: "a" })], classifier);
    const result = await runner.runTask({ objective: "x", tools: [tool], permissions: {}, defaultPermission: "ask" });
    expect(result.status).toBe("parked");
    expect(result.parked?.pending.kind).toBe("ask");
    expect(classifier.calls).toHaveLength(0);
    expect(calls).toEqual([]);
  });
});

describe("auto mode fails closed", () => {
  it("a classifier brain that throws, with a throwing tracer and notice sink: the call does not run", async () => {
    const { tool, calls } = recorder("shell");
    const broken: Brain = {
      api: "faux-cls",
      stream() {
        throw new Error("classifier exploded");
      },
    };
    const boom = () => {
      throw new Error("observer down");
    };
    const { runner } = gated([fauxToolCall("shell", { text: "a" })], broken, {
      autoMode: { classifierFallback: "none" },
      onNotice: boom,
      tracer: { frame: boom },
    });
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(calls).toEqual([]);
    expect(result.status).toBe("parked");
    expect(result.parked?.pending.kind).toBe("auto_unavailable");
  });

  it("an abort in the classification ends the run aborted: no approver asked, nothing parks or runs", async () => {
    const { tool, calls } = recorder("shell");
    const asked: string[] = [];
    const recording: Approver = async (request) => {
      asked.push(request.kind);
      return { decision: "approve" };
    };
    for (const approver of [undefined, recording]) {
      const controller = new AbortController();
      // The host aborts while the classifier is thinking; the faux brain honours the signal.
      const classifier = createFauxBrain([() => (controller.abort(), fauxDelay(60_000, ALLOW))], { api: "faux-cls" });
      const { runner, notices } = gated(
        [fauxToolCall("shell", { text: "a" }), fauxText("never")],
        classifier,
        approver ? { approver } : {},
      );
      const result = await runner.runTask(
        { objective: "x", tools: [tool], defaultPermission: "auto" },
        { signal: controller.signal },
      );
      expect(result.status).toBe("aborted");
      expect(notices.map((n) => n.code)).not.toContain("classifier.unavailable");
      expect(result.parked).toBeUndefined();
      expect(result.messages.at(-1)).toMatchObject({
        role: "toolResult",
        isError: true,
        details: { error: "not_run" },
      });
    }
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
  });

  for (const [name, answer] of [
    ["an unknown decision", { decision: "yes" }],
    ["no answer at all", undefined],
    ["a bare string", "approve"],
    ["a decision in the wrong case", { decision: "APPROVE" }],
  ] as const) {
    it(`an approver that answers ${name} is not a yes: the call parks unrun`, async () => {
      const { tool, calls } = recorder("shell");
      const { runner } = gated(
        [fauxToolCall("shell", { text: "a" })],
        [fauxText("<block>yes</block> <block>no</block>")],
        {
          approver: (async () => answer) as unknown as Approver,
        },
      );
      const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
      expect(calls).toEqual([]);
      expect(result.status).toBe("parked");
      expect(result.stats.humanReview.gates).toEqual([
        { kind: "auto_parse_error", waitMs: 0, decision: "unavailable" },
      ]);
    });
  }

  it("the approver is a person: its approve lets the call run (control for the above; extra keys fine)", async () => {
    const { tool, calls } = recorder("shell");
    const withTicket = (async () => ({ decision: "approve", approvedBy: "alice" })) as Approver;
    const { runner } = gated(
      [fauxToolCall("shell", { text: "a" }), fauxText("done")],
      [fauxText("<block>yes</block> <block>no</block>")],
      { approver: withTicket },
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "a" }]);
  });
});

describe("deny: a tool the host forbids", () => {
  it("deny: not offered; a call anyway never runs, is a forbidden error, asks no classifier or approver", async () => {
    const drop = recorder("drop_table");
    const look = recorder("look");
    const asked: string[] = [];
    const classifier = createFauxBrain([ALLOW], { api: "faux-cls" });
    const { runner, brain } = gated(
      [fauxToolCall("drop_table", { text: "users" }), fauxToolCall("look", { text: "users" }), fauxText("done")],
      classifier,
      {
        approver: async (request) => {
          asked.push(request.kind);
          return { decision: "approve" };
        },
      },
    );
    const result = await runner.runTask({
      objective: "x",
      tools: [drop.tool, look.tool],
      permissions: { drop_table: "deny" },
      defaultPermission: "auto",
    });
    expect(brain.calls[0]!.context.tools?.map((tool) => tool.name)).toEqual(["look"]);
    expect(drop.calls).toEqual([]);
    expect(look.calls).toEqual([{ text: "users" }]);
    expect(asked).toEqual([]);
    // The one classification is the allowed tool's, not the forbidden one's.
    expect(classifier.calls).toHaveLength(1);
    expect(result.status).toBe("completed");
    expect(result.messages[2]).toMatchObject({ role: "toolResult", isError: true, details: { error: "forbidden" } });
    expect(JSON.stringify(result.messages[2])).toContain("the host forbids it");
  });

  it("deny: forbidden calls do not count toward auto mode's denial limit (no classifier judged them)", async () => {
    const drop = recorder("drop_table");
    const look = recorder("look");
    const { runner } = gated(
      [
        fauxToolCall("drop_table", { text: "a" }),
        fauxToolCall("drop_table", { text: "b" }),
        fauxToolCall("drop_table", { text: "c" }),
        fauxToolCall("look", { text: "d" }),
        fauxText("done"),
      ],
      [ALLOW],
      { autoMode: { maxConsecutiveDenials: 2, maxTotalDenials: 2 } },
    );
    const result = await runner.runTask({
      objective: "x",
      tools: [drop.tool, look.tool],
      permissions: { drop_table: "deny", look: "auto" },
    });
    expect(result.status).toBe("completed");
    expect(drop.calls).toEqual([]);
    expect(look.calls).toEqual([{ text: "d" }]);
  });

  it("deny: a tool's own permission may be deny, and a spec's word for the tool overrides it", async () => {
    const shut = defineTool({
      name: "shutdown",
      description: "",
      input: z.object({}),
      permission: "deny",
      execute: () => "down",
    });
    expect(permissionFor({}, shut)).toBe("deny");
    expect(permissionFor({ permissions: { shutdown: "ask" } }, shut)).toBe("ask");
    expect(permissionFor({ defaultPermission: "deny" }, { name: "other" })).toBe("deny");
  });
});
