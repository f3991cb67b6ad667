/** Shorter values are not treated as secrets: replacing them would garble ordinary words. */
const MIN_SECRET_LENGTH = 8;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
export const REDACTED = "[redacted]";

/**
 * The secrets one server's OAuth has seen (tokens, a client secret), so any text about that
 * server — an error message, a tool result, an event — can be cleaned before it leaves.
 */
export class SecretSet {
  private readonly values = new Set<string>();

  add(...values: ReadonlyArray<string | undefined>): void {
    for (const value of values) if (value !== undefined && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
  }

  /** `text` with every known secret, and anything sent as a bearer or basic credential, replaced. */
  redact(text: string): string {
    let clean = text.replace(BEARER, `$1 ${REDACTED}`);
    for (const value of this.values) clean = clean.split(value).join(REDACTED);
    return clean;
  }
}
