import type { FindingRow } from "./events";
import { oneLine } from "./one-line";
import { boxTable, fit } from "./table";

const HEADERS = ["id", "location", "claim", "found by", "confirmed by", "disputed by", "score", "outcome"] as const;
const RIGHT = new Set([6]);
/** A claim is cut to this in the table (the whole one is in `--json`), and never below the floor to fit. */
const CLAIM_MAX = 56;
const CLAIM_MIN = 16;

const names = (list: readonly string[]) => (list.length === 0 ? "—" : list.map((n) => oneLine(n, 24)).join(", "));

function cells(row: FindingRow, claimWidth: number): string[] {
  return [
    row.id,
    oneLine(row.location, 40),
    oneLine(row.claim, claimWidth),
    names(row.foundBy),
    names(row.confirmedBy),
    names(row.disputedBy.map((d) => d.reviewer)),
    String(row.score),
    row.reported ? "reported" : "dropped",
  ];
}

/**
 * A council's findings, one row each: where, what, who found, confirmed and disputed it, its score
 * and whether it was reported. It fits in `width` columns when given, by cutting the claims shorter,
 * else one line per finding.
 */
export function findingsTable(rows: readonly FindingRow[], width = Number.POSITIVE_INFINITY): string {
  if (rows.length === 0) return "   (no findings)";
  for (let claim = CLAIM_MAX; claim >= CLAIM_MIN; claim -= 8) {
    const table = boxTable(
      HEADERS,
      rows.map((row) => cells(row, claim)),
      { right: RIGHT },
    );
    if (table[0]!.length <= width) return table.join("\n");
  }
  return rows
    .map((row) => {
      const [id, location, claim, found, confirmed, disputed, score, outcome] = cells(row, CLAIM_MAX);
      const who = `found by ${found} · confirmed by ${confirmed} · disputed by ${disputed}`;
      return fit(`${id} ${location} ${outcome} (${score}): ${claim} · ${who}`, width);
    })
    .join("\n");
}
