import { defineConfig, type Options } from "tsup";

/** The one build every publishable package uses: ESM + CJS + .d.ts/.d.cts for Node 20. */
export function packageBuild(entry: Options["entry"]) {
  return defineConfig({
    entry,
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
  });
}
