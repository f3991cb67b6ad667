// A loopback HTTP proxy that keeps every request body as the bytes that came over the wire, then
// forwards the request to the model server behind it: the mock server parses bodies, and a prompt
// cache compares bytes.
import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every request body received, in arrival order. */
  readonly bodies: Buffer[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const bodies: Buffer[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(body);
      const relay = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      relay.on("error", () => outgoing.destroy());
      relay.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
