import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** How long a refresh's answer is handed to later callers that read the same (now spent) refresh token. */
const ANSWER_KEPT_MS = 30_000;

function refreshKey(url: string | URL, init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if (!(body instanceof URLSearchParams) || body.get("grant_type") !== "refresh_token") return undefined;
  const token = body.get("refresh_token");
  return token === null ? undefined : `${String(url)} ${token}`;
}

/**
 * The fetch an OAuth-protected transport uses, with one refresh per refresh token. Calls that run
 * together all meet an expired token, and the SDK refreshes once per call; an authorization server
 * that rotates refresh tokens refuses all but the first, which would throw the others' tokens away
 * and ask the person to sign in again. The later callers get the first refresh's answer instead.
 */
export function refreshOnce(base: FetchLike = fetch): FetchLike {
  const answers = new Map<string, Promise<Response>>();
  return async (url, init) => {
    const key = refreshKey(url, init);
    if (key === undefined) return base(url, init);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = base(url, init);
      answers.set(key, answer);
      const forget = () => setTimeout(() => answers.delete(key), ANSWER_KEPT_MS).unref();
      answer.then(forget, () => answers.delete(key));
    }
    // The first answer is never read itself: every caller gets its own copy of the body.
    return (await answer).clone();
  };
}
