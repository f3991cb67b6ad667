import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { createFileParkLedger, pendingApproval, type ApprovalRequest, type RunStats } from "@x/runner";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpToolset } from "./index";
import { autoRunner, resultText, toolResults } from "../test/harness";
import { SEAT_FORM, startLoopback, type Loopback } from "../test/loopback-server";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "x-mcp-elicit-"));
const KEY = "a park key both processes share";
const TOOL = "loop__book_seat";
let loopback: Loopback;
let toolset: McpToolset | undefined;
beforeAll(async () => {
  loopback = await startLoopback();
});
afterEach(async () => {
  await toolset?.close();
  toolset = undefined;
  Object.assign(loopback.state, { asked: 0, answers: [], booked: [] });
});
afterAll(async () => {
  await loopback.close();
  rmSync(dir, { recursive: true, force: true });
});

async function bookingRun(deps: Parameters<typeof autoRunner>[2] = {}) {
  toolset = await connectMcp([
    { name: "loop", transport: { type: "http", url: loopback.url }, policy: { tools: { book_seat: "allow" } } },
  ]);
  const { runner } = autoRunner([fauxToolCall(TOOL, { flight: "XA12" }), fauxText("done")], [], deps);
  const result = await runner.runTask({ objective: "book XA12", tools: toolset.tools() });
  return { runner, result };
}

/** Resumes `parked` in a new `node` process that connects to the same loopback server. */
async function resumeElsewhere(parked: unknown, ledger: string, decision: unknown) {
  const parkFile = join(dir, `park-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(parkFile, JSON.stringify(parked));
  const child = fileURLToPath(new URL("../test/resume-elicit-child.ts", import.meta.url));
  // Asynchronously: the server the child talks to runs in this process.
  const { stdout } = await run(
    process.execPath,
    ["--conditions=@x/source", "--import", "tsx", child, parkFile, ledger, loopback.url, KEY, JSON.stringify(decision)],
    { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" },
  );
  return JSON.parse(stdout) as {
    status?: string;
    messages?: Message[];
    stats?: RunStats;
    error?: { name: string; code?: string };
  };
}

describe("a server's question during a tool call goes to the run (ctx.elicit) — loopback server on the SDK", () => {
  it("a live approver answers in the call: the server gets the answer and books once", async () => {
    const asked: ApprovalRequest[] = [];
    const { result } = await bookingRun({
      approver: async (request) => {
        asked.push(request);
        return { decision: "answer", answer: { seat: "window" } };
      },
    });
    expect(result.status).toBe("completed");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: "elicitation",
      toolCall: { name: TOOL },
      elicitation: { message: "Where do you sit on XA12?", schema: SEAT_FORM },
    });
    expect(loopback.state.booked).toEqual([{ flight: "XA12", seat: "window", bags: 0 }]);
    expect(resultText(toolResults(result.messages)[0]!)).toContain("booked");
  });

  it("a live approver's refusal reaches the server as a decline: nothing booked", async () => {
    const { result } = await bookingRun({ approver: async () => ({ decision: "decline" }) });
    expect(result.status).toBe("completed");
    expect(loopback.state.answers).toEqual(["decline"]);
    expect(loopback.state.booked).toEqual([]);
  });

  it("no approver: it parks; a resume in another process answers it, booked exactly once", async () => {
    const ledger = join(dir, "ledger");
    const { result } = await bookingRun({ parkKey: KEY, parkLedger: createFileParkLedger(ledger) });
    expect(result.status).toBe("parked");
    // The question was withdrawn, not answered: the model never answers for the user.
    expect(loopback.state.answers).not.toContain("accept");
    expect(loopback.state.booked).toEqual([]);
    expect(pendingApproval(result.parked!)).toMatchObject({
      toolCall: { name: TOOL, arguments: { flight: "XA12" } },
      kind: "elicitation",
      elicitation: { message: "Where do you sit on XA12?", schema: SEAT_FORM },
    });
    await toolset?.close();
    toolset = undefined;

    const off = await resumeElsewhere(result.parked, ledger, { decision: "answer", answer: { seat: "middle" } });
    expect(off.error).toEqual({ name: "ElicitationError", code: "answer_invalid" });
    expect(loopback.state.asked).toBe(1);

    const resumed = await resumeElsewhere(result.parked, ledger, { decision: "answer", answer: { seat: "aisle" } });
    expect(resumed.status).toBe("completed");
    expect(resumed.stats!.humanReview.gates).toMatchObject([{ kind: "elicitation", decision: "answer" }]);
    const [booking] = toolResults(resumed.messages!);
    expect(booking).toMatchObject({ toolName: TOOL, isError: false });
    expect(resultText(booking!)).toContain("aisle");
    expect(loopback.state.asked).toBe(2);
    expect(loopback.state.booked).toEqual([{ flight: "XA12", seat: "aisle", bags: 0 }]);

    // The same park again, in yet another process: refused, nothing booked twice.
    const again = await resumeElsewhere(result.parked, ledger, { decision: "answer", answer: { seat: "window" } });
    expect(again.error).toMatchObject({ name: "ParkedRunError", code: "replayed" });
    expect(loopback.state.booked).toHaveLength(1);
  }, 60_000);
});
