import { defineConfig } from "vitest/config";

// Tests run against sources: the `@x/source` export condition points every workspace
// package at its src/index.ts, so no build is needed first. Node tests read `ssr`, and Vitest
// also hands that list to Node as --conditions, so it must not name "import": a CommonJS
// dependency's require() (pg → pg-pool) would then load an ESM build and break.
const conditions = ["@x/source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A JSON report per package (a turbo output, so cached runs restore it); the root test
    // command sums them into one summary line.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
