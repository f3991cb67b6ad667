import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxToolCall } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { systemClock } from "../effects/clock";
import { createFileParkLedger } from "../effects/park-ledgers";
import { setup, texts } from "../../test/harness";
import { runChild } from "../../test/run-child";

const dir = mkdtempSync(join(tmpdir(), "x-park-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "shared-secret-between-processes";

function resumeInChild(
  parkFile: string,
  countFile: string,
  decision: "approve" | "deny" = "approve",
): { ok: boolean; code?: string; status?: string; messages?: Message[] } {
  return runChild("resume-child.ts", [parkFile, join(dir, "ledger"), countFile, KEY, decision]);
}

describe("a parked run resumed in a separate process", () => {
  it("runs the approved call once, ends with the full history; a second resume or tampered park refused", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "deploys",
      input: z.object({ target: z.string() }),
      execute: () => "never here",
    });
    const { runner } = setup([fauxToolCall("deploy", { target: "prod" }, { text: "Deploying." })], {
      parkKey: KEY,
      parkLedger: createFileParkLedger(join(dir, "ledger")),
      clock: systemClock,
    });
    const history: Message[] = [{ role: "user", content: "we ship on fridays" }];
    const parked = await runner.runTask({
      objective: "ship prod",
      tools: [deploy],
      permissions: { deploy: "ask" },
      history,
    });
    expect(parked.status).toBe("parked");
    const parkFile = join(dir, "park.json");
    const countFile = join(dir, "count.txt");
    writeFileSync(parkFile, JSON.stringify(parked.parked));

    const first = resumeInChild(parkFile, countFile);
    expect(first).toMatchObject({ ok: true, status: "completed" });
    const full = [...history, ...first.messages!];
    expect(texts(full)).toEqual([
      "we ship on fridays",
      "ship prod",
      "Deploying.call:deploy",
      "deployed prod",
      "Deployed, all done.",
    ]);
    expect(readFileSync(countFile, "utf8").trim().split("\n")).toHaveLength(1);

    expect(resumeInChild(parkFile, countFile)).toEqual({ ok: false, code: "replayed" });

    const tampered = JSON.parse(JSON.stringify(parked.parked));
    tampered.pending.arguments.target = "everything";
    tampered.messages.at(-1).content.at(-1).arguments.target = "everything";
    const tamperedFile = join(dir, "tampered.json");
    writeFileSync(tamperedFile, JSON.stringify(tampered));
    expect(resumeInChild(tamperedFile, countFile)).toEqual({ ok: false, code: "bad_signature" });

    expect(readFileSync(countFile, "utf8").trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(dir, "ledger", `${parked.parked!.parkId}.claimed`))).toBe(true);
  }, 90_000);

  it("a call a person denied never runs later: approving the same park in another process is refused", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "deploys",
      input: z.object({ target: z.string() }),
      execute: () => "never here",
    });
    const { runner } = setup([fauxToolCall("deploy", { target: "prod" })], {
      parkKey: KEY,
      parkLedger: createFileParkLedger(join(dir, "ledger")),
      clock: systemClock,
    });
    const parked = await runner.runTask({ objective: "ship prod", tools: [deploy], permissions: { deploy: "ask" } });
    const parkFile = join(dir, "denied.json");
    const countFile = join(dir, "denied-count.txt");
    writeFileSync(parkFile, JSON.stringify(parked.parked));
    writeFileSync(countFile, "");
    expect(resumeInChild(parkFile, countFile, "deny")).toMatchObject({ ok: true, status: "completed" });
    expect(resumeInChild(parkFile, countFile, "approve")).toEqual({ ok: false, code: "replayed" });
    expect(resumeInChild(parkFile, countFile, "deny")).toEqual({ ok: false, code: "replayed" });
    expect(readFileSync(countFile, "utf8")).toBe("");
  }, 90_000);
});
