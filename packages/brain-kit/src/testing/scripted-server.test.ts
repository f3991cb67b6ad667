import { afterEach, describe, expect, it } from "vitest";
// Through the package's public subpath, as the brains' testing servers import it.
import { sseFrame, startScriptedServer, type ScriptedServer } from "@x/brain-kit/testing";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("startScriptedServer", () => {
  it("records each request and answers SSE frames, then JSON, as scripted", async () => {
    server = await startScriptedServer((request, index) =>
      index === 0
        ? { kind: "sse", frames: [sseFrame({ n: 1 }, "tick"), sseFrame("[DONE]")], ending: "end" }
        : { kind: "json", status: 429, body: { error: "slow" }, headers: { "retry-after": "2" } },
    );
    const first = await fetch(`${server.origin}/v1/x?q=1`, {
      method: "POST",
      headers: { "x-test": "a" },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    expect(await first.text()).toBe('event: tick\ndata: {"n":1}\n\ndata: [DONE]\n\n');
    const second = await fetch(`${server.origin}/v1/y`, { method: "POST", body: "not json" });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    expect(await second.json()).toEqual({ error: "slow" });
    expect(server.requests).toMatchObject([
      { method: "POST", path: "/v1/x?q=1", headers: { "x-test": "a" }, body: { hello: "world" } },
      { method: "POST", path: "/v1/y", body: "not json" },
    ]);
  });

  it("a destroy reply resets the socket before any response; a handler that throws answers 500", async () => {
    server = await startScriptedServer((_request, index) => {
      if (index === 0) return { kind: "destroy" };
      throw new Error("no reply scripted");
    });
    await expect(fetch(`${server.origin}/a`)).rejects.toThrow();
    const failed = await fetch(`${server.origin}/b`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain("no reply scripted");
  });

  it("an SSE reply can reset mid-stream, after the frames it sent", async () => {
    server = await startScriptedServer(() => ({ kind: "sse", frames: [sseFrame("one")], ending: "destroy" }));
    const response = await fetch(server.origin);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    await expect(reader.read()).rejects.toThrow();
  });

  it("close() also ends connections a hang reply keeps open", async () => {
    server = await startScriptedServer(() => ({ kind: "hang" }));
    const pending = fetch(server.origin).then(
      () => "answered",
      () => "dropped",
    );
    // The request is recorded before the reply is played, so wait for it to land.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    server = undefined;
    expect(await pending).toBe("dropped");
  });
});
