import { describe, expect, it } from "vitest";
import { invocation } from "./io";

describe("invocation: the command a printed hint starts with, as the user launched this CLI", () => {
  it("names pnpm example, pnpm x-agent, or x-agent", () => {
    expect(invocation({ npm_package_name: "x-agent-core", npm_lifecycle_event: "example" })).toBe("pnpm example");
    // What pnpm 12.4.2 sets for `pnpm x-agent` / `pnpm exec x-agent` in the workspace (read off a real run).
    const pnpmBin = { npm_config_user_agent: "pnpm/12.4.2 npm/? node/? linux x64", PNPM_PACKAGE_NAME: "x-agent-core" };
    expect(invocation(pnpmBin)).toBe("pnpm x-agent");
    expect(invocation({})).toBe("x-agent");
    // Another script of a pnpm project that runs the installed bin: its script event is set.
    expect(invocation({ ...pnpmBin, npm_lifecycle_event: "agent" })).toBe("x-agent");
  });
});
