// A bench child may reach the loopback server and nothing else. Every host name a library tries to
// resolve (a tokenizer download, telemetry, a model registry) is refused here, fast and visibly,
// instead of hanging on a network that is not there; the child fails its pass when any was tried,
// so a row can never quietly measure a library's offline fallback.
import dns from "node:dns";
import { isIP } from "node:net";

const attempts: string[] = [];

function refused(hostname: string): NodeJS.ErrnoException {
  attempts.push(hostname);
  return Object.assign(new Error(`bench: no network beyond loopback (tried to resolve ${hostname})`), {
    code: "ENOTFOUND",
    hostname,
  });
}

// net and undici read `dns.lookup` when they connect, so replacing the property reaches them. IP
// literals (the loopback server's 127.0.0.1) resolve as before: they are not a network.
const lookup = dns.lookup;
const lookupPromise = dns.promises.lookup;
dns.lookup = ((hostname: string, ...rest: unknown[]) => {
  if (isIP(hostname)) return (lookup as (...a: unknown[]) => void)(hostname, ...rest);
  const callback = rest.at(-1) as (err: NodeJS.ErrnoException) => void;
  process.nextTick(() => callback(refused(hostname)));
}) as typeof dns.lookup;
dns.promises.lookup = ((hostname: string, ...rest: unknown[]) =>
  isIP(hostname)
    ? (lookupPromise as (...a: unknown[]) => Promise<unknown>)(hostname, ...rest)
    : Promise.reject(refused(hostname))) as typeof dns.promises.lookup;

/** Host names tried since the last call, cleared by it. */
export function takeOutsideAttempts(): string[] {
  return attempts.splice(0);
}
