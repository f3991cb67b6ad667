/**
 * Which entries of a long transcript are shown, and which of them condensed — chosen so the rendered
 * text only GROWS between two classifications of one run, and changes in big, rare steps.
 *
 * A provider's prompt cache pays back only for a shared prefix. A window that slides by one entry per
 * call (keep the newest N characters) shares almost nothing with the previous request. Here entries
 * are appended in full; only when the shown total passes `high` does a STEP happen: every entry
 * shown in full so far, except the newest, is condensed once and for all, and then whole entries are
 * dropped from the front until the total is back under `low`. Between steps each request is the
 * previous one plus what was appended.
 *
 * A pure function of the entries' sizes, replayed from the first entry on every call: the same
 * history gives the same window in any process (a resumed run included), and appending an entry
 * never changes the decisions made for the entries before it.
 */
export interface TranscriptWindow {
  /** The first entry shown (the pinned entry excepted). */
  start: number;
  /** Entries before this index are shown condensed. */
  condensedUntil: number;
}

export interface WindowSizes {
  /** Rendered size of each entry in full and condensed. */
  full: readonly number[];
  condensed: readonly number[];
  /** Entries always shown, in full, wherever the window starts (the user's words); not counted against the marks. */
  pinned: ReadonlySet<number>;
  high: number;
  low: number;
}

export function transcriptWindow(sizes: WindowSizes): TranscriptWindow {
  const { full, condensed, pinned, high, low } = sizes;
  let start = 0;
  let condensedUntil = 0;
  let total = 0;
  const shown = (index: number) => (pinned.has(index) ? 0 : index < condensedUntil ? condensed[index]! : full[index]!);
  for (let index = 0; index < full.length; index++) {
    total += shown(index);
    if (total <= high) continue;
    // The step: condense what is shown in full (never the newest entry, the call being judged)...
    for (let before = Math.max(start, condensedUntil); before < index; before++)
      if (!pinned.has(before)) total -= full[before]! - condensed[before]!;
    condensedUntil = Math.max(condensedUntil, index);
    // ...then drop whole entries from the front until there is room again.
    while (total > low && start < index) {
      total -= shown(start);
      start++;
    }
  }
  return { start, condensedUntil };
}
