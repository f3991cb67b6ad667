import { afterEach, describe, expect, it } from "vitest";
import { sseFrame, startProviderMockServer, streamReply, type ProviderMockServer } from "@x/brain-kit/testing";

let server: ProviderMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("streamReply", () => {
  const frames = ["a", "b", "c"].map((x) => sseFrame(x));

  it("sends every frame and closes cleanly by default", () => {
    expect(streamReply(frames, {})).toEqual({
      kind: "sse",
      frames,
      delayMs: undefined,
      headers: undefined,
      ending: "end",
    });
  });

  it("cuts after N frames, appends the error frame, and ends as asked", () => {
    expect(streamReply(frames, { cutAfter: 1, ending: "hang", delayMs: 5 }, sseFrame("oops", "error"))).toEqual({
      kind: "sse",
      frames: [frames[0], "event: error\ndata: oops\n\n"],
      delayMs: 5,
      headers: undefined,
      ending: "hang",
    });
  });
});

describe("startProviderMockServer", () => {
  it("answers its route from the script, 404s other paths, 500s past the end, lists the routed bodies", async () => {
    server = await startProviderMockServer<{ text: string }, string>({
      route: (request) => request.method === "POST" && request.path === "/v1/go",
      script: [{ text: "first" }],
      turn: (turn) => ({ kind: "json", status: 200, body: { reply: turn.text } }),
      error: (message) => ({ kind: "json", status: 400, body: { message } }),
      errorBody: (status, message) => ({ status, message }),
    });
    const post = (path: string) =>
      fetch(`${server!.origin}${path}`, { method: "POST", body: JSON.stringify({ path }) });
    const first = await post("/v1/go");
    expect(await first.json()).toEqual({ reply: "first" });
    const lost = await post("/v1/elsewhere");
    expect(lost.status).toBe(404);
    expect(await lost.json()).toEqual({ status: 404, message: "no route POST /v1/elsewhere" });
    const exhausted = await post("/v1/go");
    expect(exhausted.status).toBe(500);
    expect(await exhausted.json()).toEqual({ status: 500, message: "script has no reply #3" });
    expect(server.bodies()).toEqual([{ path: "/v1/go" }, { path: "/v1/go" }]);
  });
});

describe("startProviderMockServer replies", () => {
  it("plays an error, a drop and a raw wire reply as scripted", async () => {
    server = await startProviderMockServer<{ text: string }, string>({
      route: () => true,
      script: [
        { kind: "error", error: "bad" },
        { kind: "drop" },
        { kind: "wire", reply: { kind: "json", status: 418, body: "teapot" } },
      ],
      turn: () => ({ kind: "hang" }),
      error: (message) => ({ kind: "json", status: 400, body: { message } }),
      errorBody: (status, message) => ({ status, message }),
    });
    const first = await fetch(server.origin, { method: "POST" });
    expect([first.status, await first.json()]).toEqual([400, { message: "bad" }]);
    await expect(fetch(server.origin, { method: "POST" })).rejects.toThrow();
    expect((await fetch(server.origin, { method: "POST" })).status).toBe(418);
  });
});
