import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The loopback page the authorization server sends the person back to. */
export interface LoginCallback {
  /** The redirect URI to register: `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  /**
   * Prints the sign-in address with `show` and resolves to the URL the person was sent back to
   * (its `code` and `state`, checked by the SDK); rejects when `signal` aborts.
   */
  authorize: (authorizationUrl: URL, signal: AbortSignal) => Promise<URL>;
  close: () => Promise<void>;
}

const DONE_PAGE =
  "<!doctype html><title>x-agent</title><p>Signed in. You can close this tab and go back to the terminal.</p>";

/**
 * Listens on 127.0.0.1 only (never on every interface: the code in the redirect is a credential
 * for a moment) for the one redirect that ends a sign-in.
 */
export async function startLoginCallback(port: number, show: (url: URL) => void): Promise<LoginCallback> {
  let arrived: ((url: URL) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback" || !arrived) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(DONE_PAGE);
    arrived(new URL(url.pathname + url.search, redirectUrl));
    arrived = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    redirectUrl,
    authorize: (authorizationUrl, signal) =>
      new Promise<URL>((resolve, reject) => {
        if (signal.aborted) return reject(new Error("the sign-in was aborted"));
        signal.addEventListener("abort", () => reject(new Error("the sign-in was aborted")), { once: true });
        arrived = resolve;
        show(authorizationUrl);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
