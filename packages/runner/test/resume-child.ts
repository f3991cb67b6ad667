// Runs in a separate `node` process: resumes a parked run from a file, with the same park key and
// a file ledger shared with the parent, deciding as its fifth argument says (default approve), and
// prints the result (or the refusal) as JSON.
import { appendFileSync, readFileSync } from "node:fs";
import { createFauxBrain, fauxModel, fauxText } from "@x/brain-faux";
import { z } from "zod";
import { createFileParkLedger, createRunner, defineTool, ParkedRunError } from "@x/runner";

const [parkFile, ledgerDir, countFile, key, decision = "approve"] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  ("approve" | "deny")?,
];

const deploy = defineTool({
  name: "deploy",
  description: "deploys",
  input: z.object({ target: z.string() }),
  execute: ({ target }) => {
    appendFileSync(countFile, `${process.pid} ${target}\n`);
    return `deployed ${target}`;
  },
});

const runner = createRunner({
  brains: [createFauxBrain([fauxText("Deployed, all done.")])],
  models: { main: fauxModel({ id: "main" }) },
  parkKey: key,
  parkLedger: createFileParkLedger(ledgerDir),
});

try {
  const result = await runner.resume(readFileSync(parkFile, "utf8"), { decision }, { tools: [deploy] });
  process.stdout.write(
    JSON.stringify({ ok: true, status: result.status, messages: result.messages, stats: result.stats }),
  );
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, code: error instanceof ParkedRunError ? error.code : String(error) }),
  );
}
