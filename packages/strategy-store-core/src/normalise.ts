import { createHash } from "node:crypto";

/** The text two puts must share to count as the same strategy: case, spacing and end punctuation aside. */
export function normaliseStrategy(strategy: string): string {
  return strategy
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[\s.!;,]+$/u, "");
}

/** Fixed-size dedupe key (unique indexes cannot hold 4000-character texts on every backend). */
export function strategyKey(strategy: string): string {
  return createHash("sha256").update(normaliseStrategy(strategy)).digest("hex");
}
