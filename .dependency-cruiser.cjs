// The import rules `pnpm test` enforces (scripts/test-all.mjs runs `depcruise` with this file):
// no import cycle anywhere in the repository, types included, and the runner's one-way layers.
// ARCHITECTURE.md draws the layers; a rule here is the only place each is written down.

/** The runner's layers, top first: each may import only from the layers before it. */
const RUNNER_LAYERS = ["vocabulary", "state", "decisions", "effects", "loop", "entry"];
const runner = "^packages/runner/src/";

const upwardRules = RUNNER_LAYERS.slice(0, -1).map((layer, index) => ({
  name: `runner-${layer}-imports-only-above`,
  comment: `runner/src/${layer} may import only from ${RUNNER_LAYERS.slice(0, index).join(", ") || "outside the runner"}`,
  severity: "error",
  from: { path: `${runner}${layer}/`, pathNot: "\\.test(-d)?\\.ts$" },
  to: { path: `${runner}(${RUNNER_LAYERS.slice(index + 1).join("|")})/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-value-cycle",
      comment: "a runtime import cycle anywhere: split the shared part into a module both import",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-type-cycle",
      comment:
        "an import cycle, types included, outside a vocabulary (the runner's vocabulary/ folder, whose " +
        "type declarations may name each other as TypeScript's own lib does)",
      severity: "error",
      from: { pathNot: `${runner}vocabulary/` },
      to: { circular: true },
    },
    {
      name: "runner-layers-not-from-root",
      comment: "runner/src's entry points (index, backend, otel, testing) are imported by no layer",
      severity: "error",
      from: { path: `${runner}(${RUNNER_LAYERS.join("|")})/`, pathNot: "\\.test(-d)?\\.ts$" },
      to: { path: `${runner}[^/]+\\.ts$` },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|\\.turbo|\\.test-results)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      conditionNames: ["@x/source", "import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs"],
    },
  },
};
