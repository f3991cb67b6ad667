import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { recorder, setup } from "../../test/harness";
import { createFileParkLedger, createMemoryParkLedger } from "./park-ledgers";
import { runParkLedgerConformance } from "../testing";

const dir = mkdtempSync(join(tmpdir(), "x-ledger-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One memory ledger is what every runner of one process shares: each `open` is the same one.
const memory = createMemoryParkLedger();
runParkLedgerConformance({ name: "memory", open: () => memory });

let broken = 0;
runParkLedgerConformance({
  name: "file",
  open: () => createFileParkLedger(join(dir, "shared")),
  async unavailable() {
    const path = join(dir, `not-a-folder-${++broken}`);
    writeFileSync(path, "");
    return { ledger: createFileParkLedger(join(path, "ledger")), repair: async () => rmSync(path) };
  },
});

describe("park ledgers", () => {
  it("file: refuses an id that is not a safe file name", async () => {
    await expect(createFileParkLedger(dir).claim("../escape")).rejects.toThrow(/safe file name/);
  });
});

describe("a park ledger that fails is a typed refusal, with nothing claimed", () => {
  it("a ledger folder that is a file ⇒ ParkedRunError ledger_unavailable; fixed, the same park resumes", async () => {
    const path = join(dir, "not-a-folder");
    writeFileSync(path, "");
    const deploy = recorder("deploy");
    const { runner } = setup([fauxToolCall("deploy", { text: "prod" }), fauxText("done")], {
      parkKey: "a-test-key-of-enough-length-000",
      parkLedger: createFileParkLedger(join(path, "ledger")),
    });
    const parked = (await runner.runTask({ objective: "ship", tools: [deploy.tool], defaultPermission: "ask" }))
      .parked!;
    await expect(runner.resume(parked, { decision: "approve" }, { tools: [deploy.tool] })).rejects.toMatchObject({
      name: "ParkedRunError",
      code: "ledger_unavailable",
      detail: { parkId: parked.parkId },
    });
    expect(deploy.calls).toEqual([]);
    rmSync(path);
    expect((await runner.resume(parked, { decision: "approve" }, { tools: [deploy.tool] })).status).toBe("completed");
    expect(deploy.calls).toHaveLength(1);
  });
});
