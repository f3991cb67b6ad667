import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxModel } from "@x/brain-faux";
import { createRunner } from "@x/runner";
import { afterAll, describe, expect, it } from "vitest";
import { PARK_KEY, recordingBrain, tools } from "../test/fixture";
import { PG_URL, useHarness } from "../test/harness";
import { createPostgresParkLedger } from "./index";

const h = useHarness("settle");
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "x-settle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Resumed = { ok: true; status: string; modelCalls: number } | { ok: false; code: string };

/** Resumes `park` in a new process with its own PostgreSQL ledger. */
function resumeElsewhere(park: unknown, decision: "approve" | "deny"): Resumed {
  const parkFile = join(dir, "park.json");
  writeFileSync(parkFile, JSON.stringify(park));
  const settings = JSON.stringify({ url: PG_URL, schema: h.schema, parkFile, decision });
  const child = join(here, "../test/resume-park-child.ts");
  const out = execFileSync(process.execPath, ["--conditions=@x/source", "--import", "tsx", child, settings], {
    cwd: join(here, ".."),
    encoding: "utf8",
  });
  return JSON.parse(out) as Resumed;
}

/** A run parked on the fixture's gated `deploy`, with the PostgreSQL ledger. */
async function parkedDeploy(runId: string) {
  const ledger = createPostgresParkLedger({ db: h.queue.pool, schema: h.schema, owner: "parker" });
  const runner = createRunner({
    brains: [recordingBrain()],
    models: { main: fauxModel({ id: "main" }) },
    parkKey: PARK_KEY,
    parkLedger: ledger,
  });
  const first = await runner.runTask({ objective: "deploy it", tools: tools(h.queue.pool, h.schema), runId });
  ledger.close();
  expect(first.status).toBe("parked");
  return first.parked;
}

describe.runIf(PG_URL)("a finished or denied call never runs later (PostgreSQL ledger, across processes)", () => {
  it("a run resumed to its end, resumed again elsewhere, is refused: no call, no model call", async () => {
    const park = await parkedDeploy("settle-approved");
    expect(resumeElsewhere(park, "approve")).toEqual({ ok: true, status: "completed", modelCalls: 1 });
    expect(resumeElsewhere(park, "approve")).toEqual({ ok: false, code: "replayed" });
    expect(resumeElsewhere(park, "deny")).toEqual({ ok: false, code: "replayed" });
    expect(await h.effects("settle-approved")).toEqual(["deploy prod"]);
  }, 60_000);

  it("a call a person denied is not run by a later approval of the same park", async () => {
    const park = await parkedDeploy("settle-denied");
    expect(resumeElsewhere(park, "deny")).toEqual({ ok: true, status: "completed", modelCalls: 1 });
    expect(resumeElsewhere(park, "approve")).toEqual({ ok: false, code: "replayed" });
    expect(await h.effects("settle-denied")).toEqual([]);
  }, 60_000);
});
