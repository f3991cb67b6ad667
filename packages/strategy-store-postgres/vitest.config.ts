import shared from "../../vitest.shared.ts";

// Vitest hands ssr.resolve.conditions to Node as --conditions; the shared list includes "import",
// which makes Node's require() inside pg load pg-pool's ESM build and break. Keep Vite's server
// defaults here (plus @x/source) so CommonJS dependencies resolve as they do outside tests.
export default {
  ...shared,
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions: ["@x/source", "module", "node", "development|production"] } },
};
