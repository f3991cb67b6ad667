import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/** The bench's worker as one JavaScript file, and how to remove it. */
export interface WorkerBundle {
  readonly path: string;
  remove(): void;
}

/**
 * Bundles the bench worker once, so each worker process starts from plain JavaScript the way a
 * deployed worker starts from the published build. Started through tsx instead, every restart
 * compiles the workspace's TypeScript again: about 0.9 s of CPU per start against 0.14 s here,
 * which on a loaded machine turned the kill run into a run of restarts.
 */
export async function bundleWorker(): Promise<WorkerBundle> {
  const dir = mkdtempSync(join(tmpdir(), "x-queue-bench-"));
  const path = join(dir, "bench-worker.mjs");
  await build({
    entryPoints: [join(here, "bench-worker.ts")],
    outfile: path,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@x/source"],
    // pg asks for its optional native binding only when told to; it is not installed.
    external: ["pg-native"],
    // Bundled CommonJS (pg, pg-boss) calls require; an ES module has none of its own.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: "warning",
  });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
