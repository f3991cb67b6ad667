import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The registry round trip: run by `pnpm test` after turbo (it publishes the builds turbo made), or
// alone with `pnpm --filter @x/release-check test:registry`. Its steps build on each other, in order.
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["registry/**/*.test.ts"],
    sequence: { concurrent: false },
    reporters: ["default", ["json", { outputFile: ".test-results/registry.json" }]],
  },
});
