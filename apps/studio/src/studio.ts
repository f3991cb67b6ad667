import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { newToken, requireToken } from "./auth";
import { studioRoutes, type StudioSources } from "./routes";

/** Where the studio listens, and what it shows. */
export interface StudioOptions extends StudioSources {
  /** Default `127.0.0.1`: the studio decides approvals, so it is not on the network unless asked. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The token a browser must bring (`?token=` once). Default: a random one. */
  token?: string;
}

/** A running studio: its address with the token (open it once), and how to stop it. */
export interface Studio {
  /** `http://127.0.0.1:<port>/inbox?token=…` */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

/** Starts the studio's HTTP server. */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? newToken();
  if (token.length < 16) throw new Error("the studio's token must be at least 16 characters");
  let port = options.port ?? 0;
  const hosts = () => [`${host}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`];
  const app = new Hono();
  app.use("*", requireToken(token, hosts));
  app.route("/", studioRoutes(options, token));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started));
    started.once("error", reject);
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/inbox?token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        // Live views hold their event streams open: end them, then stop listening.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
