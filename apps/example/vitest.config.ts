import shared from "../../vitest.shared.ts";

// As in @x/strategy-store-postgres: the shared ssr conditions include "import", which Vitest hands to
// Node, and then pg's require() of pg-pool loads its ESM build and breaks. The PostgreSQL test cleans
// up through that package, so keep Vite's server defaults here (plus @x/source).
export default {
  ...shared,
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions: ["@x/source", "module", "node", "development|production"] } },
};
