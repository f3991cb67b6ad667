// The root README's "Your first agent" block, run as printed (tsx, on the workspace's sources) against an
// OpenAI-compatible server on loopback: the preset's id goes out on the wire, the key from OPENAI_API_KEY
// in the Authorization header, and the block prints the run's status and the server's answer.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { startOpenAIMockServer, type OpenAIMockServer } from "@x/brain-openai/testing";
import { afterEach, describe, expect, it } from "vitest";

const here = join(import.meta.dirname, "..");
const readme = readFileSync(join(here, "../../README.md"), "utf8");
const tsx = createRequire(join(here, "package.json")).resolve("tsx/cli");
let server: OpenAIMockServer | undefined;
afterEach(async () => server?.close());

/** The first ```ts block under the heading, exactly as the README prints it. */
function block(heading: string): string {
  const section = readme.split(`\n## ${heading}\n`)[1] ?? "";
  const code = /^```ts\n([\s\S]*?)^```$/m.exec(section.split("\n## ")[0] ?? "")?.[1];
  if (code === undefined) throw new Error(`the README has no ts block under "## ${heading}"`);
  return code;
}

describe("the root README's first agent", () => {
  it("is ten lines of code and runs as printed against a loopback OpenAI-compatible server", async () => {
    const code = block("Your first agent");
    expect(code.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(10);
    server = await startOpenAIMockServer([{ text: ["Red, ", "yellow, ", "blue"] }]);
    // Inside the package, so the workspace's @x packages resolve as they would from node_modules.
    const dir = mkdtempSync(join(here, ".first-agent-"));
    try {
      writeFileSync(join(dir, "agent.mts"), code);
      const { stdout } = await promisify(execFile)(process.execPath, [tsx, "--conditions=@x/source", "agent.mts"], {
        cwd: dir,
        env: { ...process.env, OPENAI_API_KEY: "sk-loopback", OPENAI_BASE_URL: server.baseUrl },
        timeout: 60_000,
      });
      expect(stdout).toBe("completed Red, yellow, blue\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-loopback");
    expect(server.bodies()[0]).toMatchObject({ model: "gpt-4.1-mini", stream: true, max_tokens: expect.any(Number) });
  });
});
