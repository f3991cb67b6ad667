// Runs in a separate `node` process: resumes a parked tree of sub-runs from a file, with the same
// park key and a shared file ledger, and prints the result (or the refusal) as JSON.
import { readFileSync } from "node:fs";
import { createFauxBrain, fauxText } from "@x/brain-faux";
import { createFileParkLedger, createRunner, ParkedRunError } from "@x/runner";
import { boss, kid } from "./sub-run-harness";
import { treeTools } from "./tree-tools";

const [parkFile, ledgerDir, countFile, key] = process.argv.slice(2) as [string, string, string, string];

const runner = createRunner({
  brains: [
    createFauxBrain([fauxText("Released 2.0.")]),
    createFauxBrain([fauxText("api deployed"), fauxText("shipped api")], { api: "faux-kid" }),
  ],
  models: { boss, kid },
  roles: { default: "boss" },
  parkKey: key,
  parkLedger: createFileParkLedger(ledgerDir),
});

try {
  const result = await runner.resume(
    readFileSync(parkFile, "utf8"),
    { decision: "approve" },
    { tools: [treeTools(countFile).top] },
  );
  process.stdout.write(JSON.stringify({ ok: true, result }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, code: error instanceof ParkedRunError ? error.code : String(error) }),
  );
}
