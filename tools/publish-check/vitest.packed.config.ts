import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The packed-tarball consumer test: run by `pnpm test` after turbo (it needs every package built),
// or alone with `pnpm --filter @x/publish-check test:packed`. Its own include and report, not the shared ones.
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["packed/**/*.test.ts"],
    testTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".test-results/packed.json" }]],
  },
});
