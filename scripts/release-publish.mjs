// `pnpm release:publish`: builds every package fresh, then `changeset publish` puts each non-private
// package whose version the registry lacks on it (under `next` in pre-release mode) and tags it in git.
// Fresh means no dist left over and no turbo cache replayed: the tarball holds what this checkout
// compiles to. Where the CI can sign (an OIDC token, as GitHub Actions gives a job with
// `id-token: write`) npm is asked for provenance; each package's repository field already names its folder.
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const step = (command, args, env = process.env) => {
  const run = spawnSync(command, args, { stdio: "inherit", env });
  if (run.status !== 0) process.exit(run.status ?? 1);
};

for (const name of readdirSync("packages")) rmSync(join("packages", name, "dist"), { recursive: true, force: true });
step("pnpm", ["exec", "turbo", "run", "build", "--filter=./packages/*", "--force", "--output-logs=errors-only"]);

const signed = process.env.ACTIONS_ID_TOKEN_REQUEST_URL !== undefined;
const env = signed ? { ...process.env, npm_config_provenance: "true" } : process.env;
step("pnpm", ["exec", "changeset", "publish", ...process.argv.slice(2)], env);
console.log("published; push the release tags with: git push --follow-tags");
