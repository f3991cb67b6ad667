// An MCP server over stdio, built with the SDK's own server classes, for the durable-run tests: its
// tools record each call in the tests' effects table under the idempotency key the call carried in
// `_meta` (with the server's pid), as a server whose tools have effects would keep them. `put`
// hints idempotent; `step` hints nothing but not destructive. It can hang in a call (`hangAt`),
// after recording it, as a server whose worker died mid-call; it exits when its stdin closes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { IDEMPOTENCY_KEY_META } from "@x/mcp";
import pg from "pg";

export interface LedgerSettings {
  url: string;
  schema: string;
  /** `step 3`: the call to hang in, once recorded. */
  hangAt?: string;
}

const numbered = { type: "object" as const, properties: { n: { type: "integer" } }, required: ["n"] };
const TOOLS: Tool[] = [
  {
    name: "put",
    description: "puts one thing by its key: the same call again changes nothing more",
    inputSchema: numbered,
    annotations: { idempotentHint: true, destructiveHint: false },
  },
  { name: "step", description: "does one step", inputSchema: numbered, annotations: { destructiveHint: false } },
];

const settings = JSON.parse(process.argv[2]!) as LedgerSettings;
const db = new pg.Pool({ connectionString: settings.url, max: 2 });
const server = new Server({ name: "ledger", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const done = `${request.params.name} ${String(request.params.arguments?.n)}`;
  const key = request.params._meta?.[IDEMPOTENCY_KEY_META];
  await db.query(`INSERT INTO ${settings.schema}.effects (idempotency_key, name, pid) VALUES ($1, $2, $3)`, [
    typeof key === "string" ? key : null,
    done,
    process.pid,
  ]);
  if (done === settings.hangAt) await new Promise(() => undefined);
  return { content: [{ type: "text", text: `${done} done` }] };
});
process.stdin.on("close", () => process.exit(0));
await server.connect(new StdioServerTransport());
