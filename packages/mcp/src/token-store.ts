import { z } from "zod/v4";

/**
 * What OAuth leaves behind for one MCP server: its access and refresh tokens, the client the
 * authorization server registered (or the one configured), and what discovery found. Every field
 * is kept exactly as the SDK handed it over — it stamps them with the issuer they belong to and
 * refuses to send them anywhere else.
 */
export const McpAuthRecordSchema = z.strictObject({
  tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }).optional(),
  clientInformation: z.looseObject({ client_id: z.string() }).optional(),
  discoveryState: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
});
export type McpAuthRecord = z.infer<typeof McpAuthRecordSchema>;

/**
 * Where a host keeps OAuth state, one record per server URL. Implement it over any backend (a
 * secrets manager, a database row per user); `createFileTokenStore` and `createMemoryTokenStore`
 * are provided. A record holds secrets: store it as you would a password.
 */
export interface McpTokenStore {
  load(serverUrl: string): Promise<McpAuthRecord | undefined>;
  save(serverUrl: string, record: McpAuthRecord): Promise<void>;
}

/** A store that lives as long as the process: for client credentials, tests, or one-off logins. */
export function createMemoryTokenStore(): McpTokenStore {
  const records = new Map<string, McpAuthRecord>();
  return {
    load: (serverUrl) => Promise.resolve(records.get(serverUrl)),
    save: (serverUrl, record) => {
      records.set(serverUrl, record);
      return Promise.resolve();
    },
  };
}
