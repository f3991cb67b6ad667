// The client the MCP conformance suite tests: written only on @x/mcp's public API. The suite
// starts a scenario's server, runs this file with the server's URL as its last argument and the
// scenario in MCP_CONFORMANCE_SCENARIO, then judges what reached the server.
import { connectMcp } from "../src/index";

/** Arguments for the tools the suite's servers list; every other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

const url = process.argv.at(-1) ?? "";
const toolset = await connectMcp([{ name: "suite", transport: { type: "http", url } }]);
try {
  for (const tool of toolset.tools()) {
    const server = tool.name.slice("suite__".length);
    const output = await tool.execute(ARGUMENTS[server] ?? {}, {
      signal: AbortSignal.timeout(20_000),
      runId: "conformance",
      toolCallId: server,
      toolName: tool.name,
      idempotencyKey: `conformance:${server}`,
      progress: () => undefined,
    });
    process.stdout.write(`${tool.name}: ${JSON.stringify(output)}\n`);
  }
} finally {
  await toolset.close();
}
