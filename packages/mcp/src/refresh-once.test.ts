import { describe, expect, it } from "vitest";
import { refreshOnce } from "./refresh-once";

const refresh = (token: string) => ({
  method: "POST",
  body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }),
});

describe("refreshOnce", () => {
  it("sends one refresh per refresh token, each caller reading its own copy; other requests pass", async () => {
    const sent: string[] = [];
    const base = (url: string | URL, init?: RequestInit) => {
      sent.push(`${String(url)} ${init?.body instanceof URLSearchParams ? init.body.toString() : "-"}`);
      return Promise.resolve(new Response(JSON.stringify({ access_token: `new-${sent.length}` })));
    };
    const fetchOnce = refreshOnce(base);
    const answers = await Promise.all([
      fetchOnce("http://as/token", refresh("r1")),
      fetchOnce("http://as/token", refresh("r1")),
      fetchOnce("http://as/token", refresh("r2")),
      fetchOnce("http://as/mcp", { method: "POST" }),
      fetchOnce("http://as/mcp", { method: "POST" }),
    ]);
    const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ access_token: string }>));
    expect(sent).toHaveLength(4);
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[2]).not.toEqual(bodies[0]);
  });
});
