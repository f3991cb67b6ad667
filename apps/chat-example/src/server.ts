import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { handleChatRequest } from "@x/ui-stream";
import { Hono } from "hono";
import { relative } from "node:path";
import { notesAgent } from "./notes-agent";

/** The example's server: the built page, and `POST /api/chat`, the route `useChat` talks to. */
export async function startChatExample(options: { clientDir: string; port?: number }) {
  const agent = notesAgent();
  const app = new Hono();
  app.post("/api/chat", (c) =>
    handleChatRequest(c.req.raw, {
      runner: agent.runner,
      task: ({ objective }) => ({ objective, tools: agent.tools }),
      resume: { tools: agent.tools },
    }),
  );
  app.use("/*", serveStatic({ root: relative(process.cwd(), options.clientDir) }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: options.port ?? 0 }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    notes: agent.notes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
