import { spawn } from "node:child_process";
import { get } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";

/** A Verdaccio on loopback with one publishing user; `env` points npm, pnpm and changesets at it alone. */
export interface LoopbackRegistry {
  url: string;
  /** Environment for a release command: registry, our scope and the publish token, all loopback. */
  env: NodeJS.ProcessEnv;
  /** The registry's view of one package: its versions, dist-tags, and what its `latest` depends on. */
  packument(name: string): Promise<Packument>;
  stop(): Promise<void>;
}

/**
 * The environment without the npm_config_* / pnpm_config_* variables a `pnpm run` parent exports,
 * so a child reads only the registry settings given to it (never the workspace's, never npmjs for us).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_config_/i.test(key)));
}

export interface Packument {
  versions: string[];
  distTags: Record<string, string>;
  latestDependencies: Record<string, string>;
}

export async function startRegistry(lifetimeMs: number): Promise<LoopbackRegistry> {
  const dir = mkdtempSync(join(tmpdir(), "x-registry-"));
  const launcher = join(import.meta.dirname, "verdaccio.mjs");
  const child = spawn(process.execPath, [launcher, dir, String(lifetimeMs)], { stdio: ["pipe", "pipe", "inherit"] });
  let log = "";
  child.stdout.setEncoding("utf8");
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      log += chunk;
      const found = /^port (\d+)$/m.exec(log);
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`verdaccio exited (${code}) before listening:\n${log}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const created = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "loopback-only" }),
  });
  const { token } = (await created.json()) as { token?: string };
  if (!created.ok || !token) throw new Error(`verdaccio refused the publishing user: ${created.status}`);
  const npmrc = join(dir, "npmrc");
  writeFileSync(npmrc, `registry=${url}\n@x:registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const env = { ...cleanEnv(), npm_config_userconfig: npmrc, npm_config_registry: url, "npm_config_@x:registry": url };

  return {
    url,
    env,
    async packument(name) {
      const body = await getJson(`${url}${name.replace("/", "%2f")}`);
      if (body === undefined) return { versions: [], distTags: {}, latestDependencies: {} };
      const { versions, "dist-tags": distTags } = body as {
        versions: Record<string, { dependencies?: Record<string, string> }>;
        "dist-tags": Record<string, string>;
      };
      const latest = distTags.latest === undefined ? undefined : versions[distTags.latest];
      return { versions: Object.keys(versions), distTags, latestDependencies: latest?.dependencies ?? {} };
    },
    async stop() {
      if (child.exitCode === null) {
        child.stdin.end(); // the launcher stops itself when its stdin closes
        await once(child, "exit");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One GET on a connection of its own (undefined on a 404). fetch's pooled keep-alive sockets were
 * closed under it by the registry between two reads ("other side closed").
 */
function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        if (response.statusCode === 404) resolve(undefined);
        else if (response.statusCode === 200) resolve(JSON.parse(text));
        else reject(new Error(`GET ${url}: ${response.statusCode} ${text}`));
      });
    }).on("error", reject);
  });
}
