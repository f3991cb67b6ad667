import { fauxText, fauxToolCall } from "@x/brain-faux";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpToolset } from "./index";
import { reconnectDelay, MAX_RECONNECT_ATTEMPTS } from "./reconnect";
import { autoRunner, resultText, toolResults } from "../test/harness";
import { startLoopback, type Loopback } from "../test/loopback-server";
import { startReverseProxy, type ReverseProxy } from "../test/reverse-proxy";

let loopback: Loopback;
let proxy: ReverseProxy;
beforeAll(async () => {
  loopback = await startLoopback();
  proxy = await startReverseProxy(Number(new URL(loopback.url).port));
});
afterAll(async () => {
  await proxy.close();
  await loopback.close();
});

async function echo(toolset: McpToolset, text: string) {
  const { runner } = autoRunner([fauxToolCall("loop__echo", { text }), fauxText("ok")]);
  const result = await runner.runTask({
    objective: "echo",
    tools: toolset.tools(),
    permissions: { loop__echo: "allow" },
  });
  return toolResults(result.messages)[0]!;
}

describe("reconnect delays", () => {
  it("double from 100 ms to at most 2 s, about 9 s over every attempt", () => {
    const delays = Array.from({ length: MAX_RECONNECT_ATTEMPTS - 1 }, (_, attempt) => reconnectDelay(attempt));
    expect(delays).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
  });
});

describe.each([
  { type: "http" as const, path: "/mcp" },
  { type: "sse" as const, path: "/sse" },
])("$type behind a reverse proxy that answers 502 while the server restarts", ({ type, path }) => {
  it("the calls after the restart go through on the same toolset, reconnected with backoff", async () => {
    const toolset = await connectMcp([{ name: "loop", transport: { type, url: `${proxy.origin}${path}` } }]);
    try {
      expect(resultText(await echo(toolset, "before"))).toBe("before");
      const before = proxy.badGateways;
      const restarted = loopback.restart(1_500);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // While it is down: the call in flight fails typed, or waits for the reconnect; never hangs.
      const during = await echo(toolset, "during");
      const duringText = resultText(during);
      if (during.isError) expect(during.details).toMatchObject({ error: "server_disconnected" });
      else expect(duringText).toBe("during");
      await restarted;
      const back = performance.now();
      const after = await echo(toolset, "after");
      const reconnectMs = Math.round(performance.now() - back);
      expect(after.isError).toBe(false);
      expect(resultText(after)).toBe("after");
      expect(proxy.badGateways).toBeGreaterThan(before);
      expect(reconnectMs).toBeLessThan(5_000);
      process.stdout.write(
        `${type}: during the outage ${during.isError ? "failed" : "waited"}, after ${reconnectMs} ms\n`,
      );
    } finally {
      await toolset.close();
    }
  });
});
