// A reverse proxy on 127.0.0.1 in front of an upstream on 127.0.0.1, as nginx or a load balancer
// would stand in front of an MCP server: requests and streamed (SSE) responses pass through, and
// while the upstream is down every request is answered 502 Bad Gateway.
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReverseProxy {
  /** The proxy's origin (`http://127.0.0.1:<port>`). */
  origin: string;
  /** 502 answers so far. */
  badGateways: number;
  close(): Promise<void>;
}

export async function startReverseProxy(upstreamPort: number): Promise<ReverseProxy> {
  const state = { badGateways: 0 };
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        // An upstream that goes away mid-stream ends the client's stream too, as a proxy would.
        answer.on("error", () => res.destroy());
        answer.on("aborted", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (res.headersSent) return void res.destroy();
      state.badGateways += 1;
      res.writeHead(502, { "content-type": "text/plain" }).end("502 Bad Gateway");
    });
    req.pipe(upstream);
    res.on("close", () => upstream.destroy());
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get badGateways() {
      return state.badGateways;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
