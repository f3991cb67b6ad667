/** A number as written in an answer: sign, optional `$`, digits with thousands commas, decimals. */
const NUMBER = String.raw`-?\$?\d[\d,]*(?:\.\d+)?`;

/** `$1,234.50` → 1234.5; undefined when it is not a finite number. */
export function parseNumber(text: string): number | undefined {
  const cleaned = text.replace(/[$,\s]/g, "").replace(/\.$/, "");
  if (cleaned === "" || cleaned === "-") return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}

/** Every number written in `text`, in order. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(new RegExp(NUMBER, "g"))].map((m) => parseNumber(m[0])).filter((n) => n !== undefined);
}

/**
 * Where an answer states its final number, most explicit first: the last `#### n`, the last
 * `\boxed{n}`, the last "the answer is n", else the last number of the last line that has one.
 * `marked` says whether one of the explicit forms was found.
 */
export function finalAnswer(text: string): { value: number; marked: boolean } | undefined {
  const explicit = [
    new RegExp(String.raw`####\s*(${NUMBER})`, "g"),
    new RegExp(String.raw`\\boxed\{\s*(${NUMBER})`, "g"),
    new RegExp(String.raw`answer is:?\s*\**\s*(${NUMBER})`, "gi"),
  ];
  for (const pattern of explicit) {
    const last = [...text.matchAll(pattern)].at(-1)?.[1];
    const value = last === undefined ? undefined : parseNumber(last);
    if (value !== undefined) return { value, marked: true };
  }
  const lines = text.split("\n").filter((line) => numbersIn(line).length > 0);
  const value = lines.length === 0 ? undefined : numbersIn(lines.at(-1)!).at(-1);
  return value === undefined ? undefined : { value, marked: false };
}

/** The final number of an answer, as {@link finalAnswer} finds it. */
export function finalNumber(text: string): number | undefined {
  return finalAnswer(text)?.value;
}
