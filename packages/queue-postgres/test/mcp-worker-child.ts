// A worker in its own process whose tools are an MCP server's (`mcp-ledger-server.ts`, over stdio),
// for the durable-run tests: it hangs where the test names (in the server's call, or at the link that
// would hold a tool's result), and the parent kills it.
import { connectMcp } from "@x/mcp";
import { createWorker } from "../src/index";
import { openQueue, workerOptions } from "./fixture";
import { holdResultLink } from "./hold-result-link";
import { ledgerServer } from "./mcp-ledger";
import type { ChildSettings } from "./worker-child";

const settings = JSON.parse(process.argv[2]!) as ChildSettings & { baseUrl: string };
const queue = openQueue(settings.url, settings.schema);
await queue.start();
if (settings.hangAtResultLink !== undefined) holdResultLink(queue.pool, settings.hangAtResultLink);
const hangAt = settings.hangAt === "never" ? {} : { hangAt: settings.hangAt };
const toolset = await connectMcp([ledgerServer({ url: settings.url, schema: settings.schema, ...hangAt })]);
const worker = createWorker(workerOptions(queue, toolset.tools(), { baseUrl: settings.baseUrl }));
await worker.start();
process.stdout.write("ready\n");
