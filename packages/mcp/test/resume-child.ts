// Runs in a separate `node` process: connects to the same filesystem server config the parent
// used, resumes the parked run from a file, and prints the result as JSON.
import { readFileSync } from "node:fs";
import { createFauxBrain, fauxModel, fauxText } from "@x/brain-faux";
import { createFileParkLedger, createRunner } from "@x/runner";
import { connectMcp } from "../src/index";
import { filesystemServer } from "./servers";

const [parkFile, ledgerDir, folder, key] = process.argv.slice(2) as [string, string, string, string];

const toolset = await connectMcp([filesystemServer(folder)]);
const runner = createRunner({
  brains: [createFauxBrain([fauxText("Saved it.")])],
  models: { main: fauxModel({ id: "main" }) },
  parkKey: key,
  parkLedger: createFileParkLedger(ledgerDir),
});
try {
  const result = await runner.resume(
    readFileSync(parkFile, "utf8"),
    { decision: "approve" },
    { tools: toolset.tools() },
  );
  process.stdout.write(JSON.stringify({ status: result.status, messages: result.messages }));
} finally {
  await toolset.close();
}
