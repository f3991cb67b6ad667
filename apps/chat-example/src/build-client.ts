import { fileURLToPath } from "node:url";
import { build } from "vite";

/** Where the page is built to. */
export const CLIENT_DIST = fileURLToPath(new URL("../dist/client", import.meta.url));

/** Builds the page with Vite (React's JSX through Vite's own transform), into `dist/client`. */
export async function buildClient(): Promise<string> {
  await build({
    root: fileURLToPath(new URL("./client", import.meta.url)),
    logLevel: "warn",
    build: { outDir: CLIENT_DIST, emptyOutDir: true },
    // The workspace's `@x/source` condition is for Node; the browser bundle needs none of it.
    resolve: { conditions: ["browser", "module", "import", "default"] },
  });
  return CLIENT_DIST;
}
