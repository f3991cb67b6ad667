import { afterEach, describe, expect, it } from "vitest";
// Through the package's public subpath, as the example app and the bench import it.
import { startOpenAIMockServer, type OpenAIMockServer } from "@x/brain-openai/testing";

let server: OpenAIMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Chunk {
  object: string;
  model: string;
  choices: Array<{
    delta: { role?: string; reasoning_content?: string; tool_calls?: Array<{ function: { arguments: string } }> };
    finish_reason: string | null;
  }>;
  usage?: unknown;
}

/** Reads an SSE body into its `data:` payloads. */
async function dataLines(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
}

describe("startOpenAIMockServer", () => {
  it("speaks the documented Chat Completions stream to a plain HTTP client", async () => {
    server = await startOpenAIMockServer([
      {
        reasoning: "hmm",
        text: "hi",
        toolCalls: [{ id: "call_1", name: "ls", arguments: { dir: "/" } }],
        usage: { prompt: 9, completion: 4, cached: 3 },
      },
    ]);
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m-1", stream: true, stream_options: { include_usage: true }, messages: [] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const lines = await dataLines(response);
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line) as Chunk);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "m-1")).toBe(true);
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: "assistant" });
    expect(chunks.some((c) => c.choices[0]?.delta.reasoning_content === "hmm")).toBe(true);
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t) => t.function.arguments)
      .join("");
    expect(JSON.parse(args)).toEqual({ dir: "/" });
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]!.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 3 } },
    });
    expect(server.bodies()).toEqual([
      { model: "m-1", stream: true, stream_options: { include_usage: true }, messages: [] },
    ]);
  });

  it("sends no usage chunk unless the request asks for it, and 500s past the end of the script", async () => {
    server = await startOpenAIMockServer([{ text: "one" }]);
    const post = () =>
      fetch(`${server!.baseUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", stream: true, messages: [] }),
      });
    const lines = await dataLines(await post());
    expect(lines.some((line) => line.includes('"usage":{'))).toBe(false);
    const second = await post();
    expect(second.status).toBe(500);
    expect(await second.json()).toMatchObject({ error: { message: "script has no reply #2" } });
  });
});
