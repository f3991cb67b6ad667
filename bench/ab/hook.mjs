// Loaded with NODE_OPTIONS=--import=.../bench/ab/hook.mjs: in a bench child whose harness is named
// `<name>@base` or `<name>@fixed`, resolves @x/* to the copies that ab/make-variants.sh made under
// bench/results/exp/<variant>. Every other process (and every other harness) is left alone.
import { register } from "node:module";

let variant;
try {
  variant = /@(base|fixed)$/.exec(JSON.parse(process.argv[2] ?? "{}").harness ?? "")?.[1];
} catch {
  // Not a bench child (its argv[2] is not the JSON config).
}
if (variant) register(new URL("./resolve.mjs", import.meta.url), { data: { variant } });
