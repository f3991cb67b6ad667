// Resumes a park in its own process, with the PostgreSQL park ledger (its own owner) and the
// fixture's tools, deciding as told; prints the result's status and model calls, or the refusal.
import { readFileSync } from "node:fs";
import { fauxModel } from "@x/brain-faux";
import { createRunner, ParkedRunError } from "@x/runner";
import pg from "pg";
import { createPostgresParkLedger } from "../src/index";
import { PARK_KEY, recordingBrain, tools } from "./fixture";

const { url, schema, parkFile, decision } = JSON.parse(process.argv[2]!) as {
  url: string;
  schema: string;
  parkFile: string;
  decision: "approve" | "deny";
};
const db = new pg.Pool({ connectionString: url, max: 2 });
const ledger = createPostgresParkLedger({ db, schema, owner: `resumer-${process.pid}` });
const calls: number[] = [];
const runner = createRunner({
  brains: [recordingBrain(calls)],
  models: { main: fauxModel({ id: "main" }) },
  parkKey: PARK_KEY,
  parkLedger: ledger,
});
try {
  const result = await runner.resume(readFileSync(parkFile, "utf8"), { decision }, { tools: tools(db, schema) });
  process.stdout.write(JSON.stringify({ ok: true, status: result.status, modelCalls: calls.length }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, code: error instanceof ParkedRunError ? error.code : String(error) }),
  );
} finally {
  ledger.close();
  await db.end();
}
