// Loaded with NODE_OPTIONS=--import=.../bench/ab/hook.mjs: in a bench child whose harness is named
// `<name>@<tag>`, resolves @x/* to the build that ab/snapshot.sh copied to bench/results/exp/<tag>.
// Every other process (and every other harness) is left alone.
import { register } from "node:module";

let variant;
try {
  variant = /@([a-z0-9-]+)$/.exec(JSON.parse(process.argv[2] ?? "{}").harness ?? "")?.[1];
} catch {
  // Not a bench child (its argv[2] is not the JSON config).
}
if (variant) register(new URL("./resolve.mjs", import.meta.url), { data: { variant } });
