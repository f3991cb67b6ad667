// The client the MCP conformance suite tests: written only on @x/mcp's public API. The suite
// starts a scenario's server, runs this file with the server's URL as its last argument, the
// scenario in MCP_CONFORMANCE_SCENARIO and its credentials (if any) in MCP_CONFORMANCE_CONTEXT,
// then judges what reached its servers.
import { z } from "zod";
import { connectMcp, createMemoryTokenStore, type McpAuth, type McpServerConfig } from "../src/index";

/** Arguments for the tools the suite's servers list; every other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };
const REDIRECT_URL = "http://localhost:3000/callback";
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const ContextSchema = z.looseObject({
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  private_key_pem: z.string().optional(),
  signing_algorithm: z.string().optional(),
});

/** The person signing in: the suite's authorization server approves at once and redirects. */
async function authorize(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (location === null) throw new Error(`the authorization server answered ${response.status} with no redirect`);
  return location;
}

function authFor(scenario: string): McpAuth | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  const context = ContextSchema.parse(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}"));
  const store = createMemoryTokenStore();
  const client = {
    ...(context.client_id !== undefined ? { clientId: context.client_id } : {}),
    ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
  };
  if (scenario.startsWith("auth/client-credentials")) {
    return {
      store,
      grant: "client_credentials",
      ...client,
      ...(context.private_key_pem !== undefined ? { privateKey: context.private_key_pem } : {}),
      ...(context.signing_algorithm !== undefined ? { signingAlgorithm: context.signing_algorithm } : {}),
    };
  }
  return { store, redirectUrl: REDIRECT_URL, authorize, clientMetadataUrl: CLIENT_METADATA_URL, ...client };
}

const url = process.argv.at(-1) ?? "";
const auth = authFor(process.env.MCP_CONFORMANCE_SCENARIO ?? "");
const server: McpServerConfig = { name: "suite", transport: { type: "http", url, ...(auth ? { auth } : {}) } };
// The person answering a form accepts it as offered: the server's defaults stand.
const toolset = await connectMcp([server], { elicit: () => Promise.resolve({ action: "accept", content: {} }) });
try {
  for (const tool of toolset.tools()) {
    const name = tool.name.slice("suite__".length);
    const output = await tool.execute(ARGUMENTS[name] ?? {}, {
      signal: AbortSignal.timeout(20_000),
      runId: "conformance",
      toolCallId: name,
      toolName: tool.name,
      idempotencyKey: `conformance:${name}`,
      progress: () => undefined,
      // The connection's own `elicit` above answers every question; this one is never reached.
      elicit: () => Promise.resolve({ action: "decline" }),
    });
    process.stdout.write(`${tool.name}: ${JSON.stringify(output)}\n`);
  }
} finally {
  await toolset.close();
}
