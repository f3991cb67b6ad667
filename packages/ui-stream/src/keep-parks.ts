import type { ParkedRun } from "@x/runner";
import type { RunEvent } from "./run-types";

/** The events as they come, each park handed to `onParked` (and awaited) before the event that announces it. */
export async function* keepParks(
  events: AsyncIterable<RunEvent>,
  onParked: ((parked: ParkedRun) => void | Promise<void>) | undefined,
): AsyncGenerator<RunEvent> {
  for await (const event of events) {
    if (event.type === "parked" && onParked) await onParked(event.parked);
    yield event;
  }
}
