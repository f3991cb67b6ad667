import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod/v4";
import { McpError } from "./errors";
import { McpAuthRecordSchema, type McpAuthRecord, type McpTokenStore } from "./token-store";

const FileSchema = z.strictObject({
  version: z.literal(1),
  servers: z.record(z.string(), McpAuthRecordSchema),
});
type TokenFile = z.infer<typeof FileSchema>;

async function readTokenFile(path: string): Promise<TokenFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = FileSchema.safeParse(json);
  // The file's content is never quoted back: it holds tokens.
  if (!parsed.success) throw new McpError("config_invalid", `the MCP token file ${path} is not one this version wrote`);
  return parsed.data;
}

/**
 * OAuth state in one JSON file, readable by its owner only (mode 0600), replaced whole on every
 * save (written beside it, then renamed) so a crash never leaves half a file. Saves from one
 * process are serialised; two processes sharing a file should use a database-backed store.
 */
export function createFileTokenStore(path: string): McpTokenStore {
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    load: (serverUrl) => serialised(async () => (await readTokenFile(path)).servers[serverUrl]),
    save: (serverUrl, record: McpAuthRecord) =>
      serialised(async () => {
        const file = await readTokenFile(path);
        file.servers[serverUrl] = McpAuthRecordSchema.parse(record);
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const temporary = `${path}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, path);
      }),
  };
}
