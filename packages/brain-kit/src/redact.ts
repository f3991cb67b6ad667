/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`. Brains pass their API key
 * (and any other credential) so provider error text never leaks it. Secrets shorter than 4
 * characters are ignored: redacting them would shred ordinary words.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  const plain = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4);
  // Longest first, so a secret that contains another (or its own encoding) is replaced whole.
  const usable = [...plain, ...plain.flatMap(base64Forms)].sort((a, b) => b.length - a.length);
  for (const secret of usable) out = out.split(secret).join("[redacted]");
  // Bearer tokens echoed back by gateways, whatever the key.
  return out.replace(/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, "$1[redacted]");
}

/** The shortest base64 run that is matched: shorter ones would shred ordinary base64 text. */
const MIN_ENCODED_LENGTH = 8;

/**
 * How a secret looks once a gateway echoes it base64-encoded (a Basic credential, a JWT-ish
 * wrapper, a debug dump), in standard and URL-safe alphabets. Inside a longer encoded value the
 * secret can start at any of three byte offsets, so each offset gives the run of characters that
 * depend on the secret's bytes alone — the edges, which mix in neighbouring bytes, are left out.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const run = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (run.length < MIN_ENCODED_LENGTH) continue;
    forms.push(run, run.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...new Set(forms)];
}

/**
 * Header names whose values are credentials (`authorization`, `x-api-key`, `api-key`, `cookie`, `x-goog-api-key`, ...).
 */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|password/i;

/**
 * The secrets a brain must scrub from its messages: the API key, and the value of every
 * credential-looking header it may send (with and without its `Bearer`/`Basic` scheme), from
 * brain options, the model and the request alike.
 */
export function credentialsIn(
  apiKey: string | undefined,
  ...headerSets: Array<Record<string, string> | undefined>
): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const headers of headerSets) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (typeof value === "string" && CREDENTIAL_HEADER.test(name))
        secrets.push(value, value.replace(/^(Bearer|Basic)\s+/i, ""));
    }
  }
  return secrets;
}

/**
 * Headers written one per line as `Name: value` — the format of the SDKs' `OPENAI_CUSTOM_HEADERS` /
 * `ANTHROPIC_CUSTOM_HEADERS` environment variables, which they add to every request on their own —
 * so a brain can count them among the credentials it scrubs.
 */
export function headerLines(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (text ?? "").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}
