import type { BrainEvent, BrainStream } from "./brain";
import type { AssistantMessage } from "./messages";

/**
 * A push-based {@link BrainStream}: a brain pushes events as they arrive and ends with a final
 * message. Buffers events for a consumer that iterates late; `result()` works without iterating.
 * Single consumer: iterate it once.
 */
export class EventStream implements BrainStream {
  private readonly queue: BrainEvent[] = [];
  private waiting: ((value: IteratorResult<BrainEvent>) => void) | undefined;
  private ended = false;
  private readonly final: Promise<AssistantMessage>;
  private resolveFinal!: (message: AssistantMessage) => void;

  constructor() {
    this.final = new Promise((resolve) => (this.resolveFinal = resolve));
  }

  /** Pushes one event; `done`/`error` also end the stream and settle `result()`. Ignored once ended. */
  push(event: BrainEvent): void {
    if (this.ended) return;
    if (event.type === "done" || event.type === "error") {
      this.ended = true;
      this.resolveFinal(event.message);
    }
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  result(): Promise<AssistantMessage> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<BrainEvent> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}
