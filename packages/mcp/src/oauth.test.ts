import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import type { EngineNotice, TraceFrame } from "@x/llm-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectMcp, createFileTokenStore, type McpServerConfig, type McpToolset } from "./index";
import { autoRunner, resultText, streamAll, toolResults } from "../test/harness";
import { startOAuthMcpServer, type OAuthMcpServer } from "../test/oauth-server";

let server: OAuthMcpServer;
let tokensFile: string;
const output: string[] = [];
const signIns: string[] = [];

/** The person signing in: the test's authorization server approves at once and redirects back. */
async function authorize(url: URL): Promise<string> {
  signIns.push(url.searchParams.get("scope") ?? "");
  const response = await fetch(url, { redirect: "manual" });
  return response.headers.get("location") ?? "";
}

function config(withLogin: boolean): McpServerConfig {
  return {
    name: "secure",
    transport: {
      type: "http",
      url: server.url,
      auth: {
        store: createFileTokenStore(tokensFile),
        redirectUrl: "http://127.0.0.1:53682/callback",
        ...(withLogin ? { authorize } : {}),
      },
    },
    policy: { default: "allow" },
  };
}

beforeAll(async () => {
  server = await startOAuthMcpServer();
  tokensFile = join(mkdtempSync(join(tmpdir(), "mcp-oauth-")), "tokens.json");
  // Everything written to the console during these tests is checked for tokens afterwards.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    vi.spyOn(stream, "write").mockImplementation((chunk: unknown, ...rest: unknown[]) => {
      output.push(String(chunk));
      return write(chunk, ...rest);
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe("a real MCP server from npm (server-everything) behind a real OAuth flow on loopback", () => {
  it("signs in once, calls a tool, calls again after a token refresh, and no token leaves the store", async () => {
    const frames: TraceFrame[] = [];
    const notices: EngineNotice[] = [];
    const observe = {
      tracer: { frame: (frame: TraceFrame) => frames.push(frame) },
      onNotice: notices.push.bind(notices),
    };
    const toolset: McpToolset = await connectMcp([config(true)]);
    const seen: unknown[] = [];
    try {
      expect(server.provider.log).toMatchObject({ registrations: 1, codeGrants: 1, refreshGrants: 0 });
      expect(signIns).toEqual(["mcp"]);

      const echo = async (message: string) => {
        const script = [fauxToolCall("secure__echo", { message }), fauxText("done")];
        const { runner } = autoRunner(script, [], observe);
        const run = await streamAll(runner, { objective: "echo", tools: toolset.tools() });
        seen.push(run.events, run.result);
        return run.result;
      };
      const first = await echo("before the refresh");
      expect(resultText(toolResults(first.messages)[0]!)).toBe("Echo: before the refresh");

      // The access token expires: the next call is refused, the token refreshed, the call sent again.
      server.provider.expireAccessTokens();
      const second = await echo("after the refresh");
      expect(resultText(toolResults(second.messages)[0]!)).toBe("Echo: after the refresh");
      expect(server.provider.log).toMatchObject({ codeGrants: 1, refreshGrants: 1 });
      expect(signIns).toHaveLength(1);

      // Three calls at once on an expired token, and the authorization server rotates refresh tokens:
      // a second refresh with the spent one would be refused and force a new sign-in. Each call goes
      // through with no sign-in; a call refused after the first refresh landed may refresh once more
      // with the new token (the SDK refreshes per refused request).
      server.provider.expireAccessTokens();
      const parallel = await Promise.all(["a", "b", "c"].map((text) => echo(text)));
      expect(parallel.map((run) => resultText(toolResults(run.messages)[0]!))).toEqual([
        "Echo: a",
        "Echo: b",
        "Echo: c",
      ]);
      expect(server.provider.log.codeGrants).toBe(1);
      expect(server.provider.log.refreshGrants).toBeGreaterThanOrEqual(2);
      expect(server.provider.log.refreshGrants).toBeLessThanOrEqual(4);
      expect(signIns).toHaveLength(1);

      // A call that waits for a person parks: the park names the call, never a credential.
      const { runner } = autoRunner([fauxToolCall("secure__echo", { message: "parked" }), fauxText("done")]);
      const parked = await runner.runTask({
        objective: "echo",
        tools: toolset.tools(),
        permissions: { secure__echo: "ask" },
      });
      expect(parked.status).toBe("parked");
      seen.push(parked);
    } finally {
      await toolset.close();
    }

    // The store is the one place they live: the latest refresh token is there, in a file only its owner reads.
    expect(readFileSync(tokensFile, "utf8")).toContain(server.provider.log.secrets.at(-1));
    expect(statSync(tokensFile).mode & 0o777).toBe(0o600);

    // Revoked everywhere, and no person to sign in again: the call fails typed, its message clean.
    server.provider.revokeAll();
    const headless = await connectMcp([config(false)]).catch((error: unknown) => error);
    expect(headless).toMatchObject({ code: "auth_required" });
    seen.push(String(headless), (headless as Error).stack);

    const leaks = server.provider.log.secrets.filter((secret) =>
      [JSON.stringify(seen), JSON.stringify(frames), JSON.stringify(notices), output.join("")].some((text) =>
        text.includes(secret),
      ),
    );
    expect(server.provider.log.secrets.length).toBeGreaterThanOrEqual(4);
    expect(leaks).toEqual([]);
    // The refused refresh token was dropped from the store rather than tried again.
    const record = (JSON.parse(readFileSync(tokensFile, "utf8")) as { servers: Record<string, object> }).servers;
    expect(record[server.url]).toHaveProperty("clientInformation");
    expect(record[server.url]).not.toHaveProperty("tokens");
  });
});
