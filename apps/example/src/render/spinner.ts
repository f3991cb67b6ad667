const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * One status line redrawn in place while the CLI waits on a model. Only for a terminal: it writes
 * carriage returns and clears the line, which would be noise in a pipe or a file.
 */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private label = "";
  private since = Date.now();

  constructor(private readonly write: (text: string) => void) {}

  start(label: string): void {
    this.label = label;
    this.since = Date.now();
    if (this.timer) return;
    this.draw();
    this.timer = setInterval(() => this.draw(), 80);
    // The spinner must never keep the process alive on its own.
    this.timer.unref();
  }

  /** Erases the line; call before printing anything else. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.write("\r\x1b[2K");
  }

  private draw(): void {
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.write(`\r\x1b[2K${FRAMES[this.frame]} ${this.label} ${seconds}s`);
  }
}
