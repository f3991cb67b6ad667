import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../src/args";
import { storedSignIns } from "../src/commands/mcp";
import { mcpServers, openMcp } from "../src/mcp";
import { BIN, cleanEnv, removeTempDirs, runCli, tempDir } from "./cli-helpers";
import { startOAuthMcpServer, type OAuthMcpServer } from "./oauth-mcp-server";

let server: OAuthMcpServer;
beforeAll(async () => {
  server = await startOAuthMcpServer();
});
afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

/**
 * Runs `x-agent mcp login` as a user would and plays the person: opens the address it prints (the
 * test's authorization server approves at once and redirects) and follows the redirect to the CLI's
 * loopback callback, as a browser would.
 */
function login(cwd: string, tokens: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; page: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "mcp", "login", server.url, "--tokens", tokens, "--port", "0"], {
      cwd,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let opened: Promise<string> | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const address = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(stdout)?.[1];
      if (address && !opened) {
        opened = (async () => {
          const approved = await fetch(address, { redirect: "manual" });
          const callback = await fetch(approved.headers.get("location") ?? "");
          return callback.text();
        })();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      void (opened ?? Promise.resolve("")).then((page) => resolve({ code, stdout, stderr, page }), reject);
    });
  });
}

describe("x-agent mcp login <url>", () => {
  it("prints the sign-in address, catches the redirect on 127.0.0.1, stores the tokens; none is printed", async () => {
    const cwd = await tempDir("x-agent-mcp-login-");
    const tokens = join(cwd, "mcp-tokens.json");
    const run = await login(cwd, tokens);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("open this address in your browser to sign in");
    expect(run.page).toContain("Signed in");
    expect(run.stdout).toContain(`signed in to ${server.url}: 1 tools; tokens stored in ${tokens}`);
    expect(server.log).toMatchObject({ registrations: 1, codeGrants: 1 });
    expect(server.log.redirects[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The tokens are in the file (mode 0600), and in no byte the CLI printed.
    expect(statSync(tokens).mode & 0o777).toBe(0o600);
    const stored = readFileSync(tokens, "utf8");
    for (const secret of server.log.secrets) {
      expect(run.stdout + run.stderr).not.toContain(secret);
    }
    expect(server.log.secrets.filter((secret) => stored.includes(secret)).length).toBeGreaterThan(0);

    // What the login stored is what `run --mcp-url` signs in with: no person, no new grant.
    const toolset = await openMcp(mcpServers([], [server.url], storedSignIns({ X_AGENT_MCP_TOKENS: tokens })));
    try {
      expect(toolset!.tools().map((tool) => tool.name)).toEqual(["mcp__whoami"]);
    } finally {
      await toolset!.close();
    }
    expect(server.log.codeGrants).toBe(1);
  }, 60_000);

  it("a --mcp-url server nobody signed in to is a usage error that says how to sign in", async () => {
    const cwd = await tempDir("x-agent-mcp-login-");
    const configs = mcpServers([], [server.url], storedSignIns({ X_AGENT_MCP_TOKENS: join(cwd, "none.json") }));
    const error = await openMcp(configs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(`x-agent mcp login ${server.url}`);
  });

  it("a command line without a server URL is a usage error (exit 2)", async () => {
    const cwd = await tempDir("x-agent-mcp-login-");
    const run = await runCli(["mcp", "login", "ftp://nowhere"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr + run.stdout).toContain("needs the server's http(s) URL");
  });
});
