import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { createFileParkLedger, type ParkedRun } from "@x/runner";
import { ParkedRunSchema, type ParkLedger } from "@x/runner/backend";
import { z } from "zod";

/** The CLI's own state folder, under the folder it runs in. Gitignored. */
export function stateDir(cwd: string): string {
  return join(cwd, ".x-agent");
}

/**
 * The key parked runs are signed with: `X_AGENT_PARK_KEY`, else `.x-agent/park.key` (made on first
 * use, readable by its owner only). A resume in another process must see the same key — and a park
 * file edited by hand is refused, because its signature no longer matches.
 */
export async function parkKey(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const fromEnv = env.X_AGENT_PARK_KEY?.trim();
  if (fromEnv) return fromEnv;
  const file = join(stateDir(cwd), "park.key");
  try {
    const key = (await readFile(file, "utf8")).trim();
    // Anyone who can read the key can forge a park: a copy made by hand with a looser mode is tightened.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dirname(file), { recursive: true });
  const key = randomBytes(32).toString("hex");
  try {
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(file, "utf8")).trim();
    throw error;
  }
}

/** Claimed park ids, one file each, so a parked call runs at most once across processes. */
export function parkLedger(cwd: string): ParkLedger {
  return createFileParkLedger(join(stateDir(cwd), "park-ledger"));
}

const ModeSchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("demo"), scope: z.string() }),
  z.object({
    mode: z.literal("endpoint"),
    endpoint: z.object({
      provider: z.enum(["openai", "openai-responses", "anthropic"]),
      baseUrl: z.string().min(1),
      model: z.string().min(1),
      teacherModel: z.string().min(1),
      classifierModel: z.string().min(1).optional(),
      prices: z.record(z.string(), z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() })),
    }),
  }),
]);

/** What `x-agent resume` needs besides the parked run: how to rebuild the models and the tools. */
export const ParkFileSchema = z.object({
  kind: z.literal("x-agent.parked"),
  version: z.literal(1),
  createdAt: z.string(),
  label: z.string(),
  sandbox: z.string().min(1),
  shellTimeoutMs: z.number().int().positive(),
  run: ModeSchema,
  /**
   * The MCP servers the run had (`--mcp` command lines, `--mcp-url` endpoints): a call parked on one
   * of their tools is resumed with them connected again. Signed with the rest: an edited command line
   * is refused before anything is started.
   */
  mcp: z.object({ commands: z.array(z.string()), urls: z.array(z.string()) }).optional(),
  /** Validated (and its signature checked) by the runner on resume. */
  parked: z.unknown(),
  /**
   * HMAC of everything above with the park key: the runner signs only `parked`, and the sandbox or endpoint named
   * here decide where an approved call acts and where the API key goes.
   */
  signature: z.string(),
});
/** `parked` is the runner's ParkedRun when written; read back it is untrusted until the runner verifies it. */
export type ParkFile = Omit<z.infer<typeof ParkFileSchema>, "parked" | "signature"> & { parked: unknown };

function sign(file: ParkFile, key: string): string {
  const { kind, version, createdAt, label, sandbox, shellTimeoutMs, run, parked } = file;
  return createHmac("sha256", key)
    .update(JSON.stringify({ kind, version, createdAt, label, sandbox, shellTimeoutMs, run, parked }))
    .digest("hex");
}

export class ParkFileError extends Error {
  readonly code = "park_file_invalid";
  constructor(message: string) {
    super(message);
    this.name = "ParkFileError";
  }
}

/**
 * The parked run a park file holds, read only to show the call it waits for (the runner verifies its
 * signature again on resume). A park this CLI cannot read is refused before anything is decided: no
 * call is approved unseen.
 */
export function parkedRunOf(file: ParkFile, path: string): ParkedRun {
  const parsed = ParkedRunSchema.safeParse(file.parked);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ParkFileError(
    `${path}: cannot show the call it waits for ` +
      `(${issue?.path.join(".") || "root"}: ${issue?.message}); nothing was decided`,
  );
}

export async function writeParkFile(path: string, file: ParkFile, key: string): Promise<string> {
  const target = resolve(path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, `${JSON.stringify({ ...file, signature: sign(file, key) }, null, 2)}\n`, { mode: 0o600 });
  return target;
}

export async function readParkFile(path: string, key: string): Promise<ParkFile> {
  let raw: string;
  try {
    raw = await readFile(resolve(path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ParkFileError(
      code === "ENOENT" ? `no such park file: ${path}` : `cannot read ${path}: ${code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ParkFileError(`${path} is not JSON`);
  }
  const parsed = ParkFileSchema.safeParse(json);
  if (!parsed.success)
    throw new ParkFileError(
      `${path} is not an x-agent park file ` +
        `(${parsed.error.issues[0]?.path.join(".") || "root"}: ` +
        `${parsed.error.issues[0]?.message})`,
    );
  const { signature, ...file } = parsed.data;
  const expected = Buffer.from(sign(file, key), "hex");
  const given = Buffer.from(signature, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ParkFileError(
      `${path} was edited, or signed with another park key (run resume from the folder the run parked in)`,
    );
  }
  return file;
}
