// How a worker reaches the ledger MCP server (`mcp-ledger-server.ts`): spawned over stdio, its
// annotations trusted and its tools allowed, as a host configures a server it runs itself.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "@x/mcp";
import type { LedgerSettings } from "./mcp-ledger-server";

const here = dirname(fileURLToPath(import.meta.url));

/** The ledger server's config: its tools are `ledger__put` and `ledger__step`. */
export function ledgerServer(settings: LedgerSettings): McpServerConfig {
  return {
    name: "ledger",
    transport: {
      type: "stdio",
      command: process.execPath,
      args: ["--conditions=@x/source", "--import", "tsx", join(here, "mcp-ledger-server.ts"), JSON.stringify(settings)],
      cwd: join(here, ".."),
      stderr: "inherit",
    },
    policy: { annotations: "trusted", default: "allow" },
  };
}
