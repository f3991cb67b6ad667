/** One server-sent event: its `event:` name (null when none) and its `data:` lines joined by `\n`. */
export interface SseEvent {
  event: string | null;
  data: string;
}

export interface SseSplitterOptions {
  /**
   * Drop one U+FEFF (a byte-order mark) that opens a line, as Anthropic's SDK does on every line;
   * OpenAI's SDK reads it as part of the field name. Default false.
   */
  stripLineBom?: boolean;
}

/**
 * Splits server-sent events out of a stream's text, fed as it arrives, by the rules the providers'
 * SDKs read them with: lines end at `\r\n`, `\n` or `\r`; a blank line dispatches the event when it
 * has a name or a data line; `:` starts a comment; one space after a field's colon is dropped;
 * fields other than `event` and `data` are ignored. An event the stream ends inside (no blank line
 * after it) is never dispatched, as the SDKs drop it too.
 */
export class SseSplitter {
  private readonly stripLineBom: boolean;
  private rest = "";
  /** The last text ended in `\r`: a `\n` that opens the next one belongs to that line end. */
  private afterCR = false;
  private event: string | null = null;
  /** The event's data lines so far: most events have one, kept as is; a second makes a list. */
  private data: string | string[] | undefined = undefined;

  constructor(options: SseSplitterOptions = {}) {
    this.stripLineBom = options.stripLineBom ?? false;
  }

  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    let from = 0;
    // After a line that ended in `\r` nothing is kept back, so the `\n` can only open `text`.
    if (this.afterCR && text.charCodeAt(0) === 10) from = 1;
    this.afterCR = false;
    const buffer = this.rest === "" ? text : this.rest + text;
    // Each terminator is searched for once per push, not once per line.
    let lf = buffer.indexOf("\n", from);
    let cr = buffer.indexOf("\r", from);
    while (lf >= 0 || cr >= 0) {
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      this.line(buffer, from, end, out);
      from = end + 1;
      if (end === cr) {
        if (from === buffer.length) this.afterCR = true;
        else if (buffer.charCodeAt(from) === 10) from++;
        cr = buffer.indexOf("\r", from);
      }
      if (lf >= 0 && lf < from) lf = buffer.indexOf("\n", from);
    }
    this.rest = from === 0 ? buffer : buffer.slice(from);
    return out;
  }

  /**
   * Reads the line `buffer[from, end)` in place: only the value of a `data` or `event` field is cut
   * out (a streamed call has thousands of lines; a slice per line, field and value was most of what
   * splitting cost).
   */
  private line(buffer: string, from: number, end: number, out: SseEvent[]): void {
    if (this.stripLineBom && from < end && buffer.charCodeAt(from) === 0xfeff) from++;
    if (from === end) {
      // An `event:` with an empty name and no data is no event (as the SDKs read it).
      const data = this.data;
      if (!this.event && data === undefined) return;
      out.push({
        event: this.event,
        data: data === undefined ? "" : typeof data === "string" ? data : data.join("\n"),
      });
      this.event = null;
      this.data = undefined;
      return;
    }
    if (buffer.charCodeAt(from) === 58 /* : */) return;
    let colon = buffer.indexOf(":", from);
    if (colon < 0 || colon > end) colon = end;
    const length = colon - from;
    const isData = length === 4 && buffer.startsWith("data", from);
    if (!isData && !(length === 5 && buffer.startsWith("event", from))) return;
    let start = colon < end ? colon + 1 : end;
    if (start < end && buffer.charCodeAt(start) === 32 /* space */) start++;
    const value = buffer.slice(start, end);
    if (!isData) this.event = value;
    else if (this.data === undefined) this.data = value;
    else if (typeof this.data === "string") this.data = [this.data, value];
    else this.data.push(value);
  }
}
