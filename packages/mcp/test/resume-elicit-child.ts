// Runs in a separate `node` process: connects to the loopback server the parent runs, resumes the
// run that parked on the server's question with the person's answer, and prints the result as JSON.
import { readFileSync } from "node:fs";
import { createFauxBrain, fauxModel, fauxText } from "@x/brain-faux";
import { createFileParkLedger, createRunner, type ResumeDecision } from "@x/runner";
import { connectMcp } from "../src/index";

const [parkFile, ledgerDir, url, key, decision] = process.argv.slice(2) as [string, string, string, string, string];

const toolset = await connectMcp([{ name: "loop", transport: { type: "http", url } }]);
const runner = createRunner({
  brains: [createFauxBrain([fauxText("Booked.")])],
  models: { main: fauxModel({ id: "main" }) },
  parkKey: key,
  parkLedger: createFileParkLedger(ledgerDir),
});
try {
  const result = await runner.resume(readFileSync(parkFile, "utf8"), JSON.parse(decision) as ResumeDecision, {
    tools: toolset.tools(),
  });
  process.stdout.write(JSON.stringify({ status: result.status, messages: result.messages, stats: result.stats }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ error: { name: (error as Error).name, code: (error as { code?: string }).code } }),
  );
} finally {
  await toolset.close();
}
