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
  private data: string[] = [];

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
      this.line(buffer.slice(from, end), out);
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

  private line(line: string, out: SseEvent[]): void {
    if (this.stripLineBom && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line === "") {
      // An `event:` with an empty name and no data is no event (as the SDKs read it).
      if (!this.event && this.data.length === 0) return;
      out.push({ event: this.event, data: this.data.length === 1 ? this.data[0]! : this.data.join("\n") });
      this.event = null;
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* space */) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}
