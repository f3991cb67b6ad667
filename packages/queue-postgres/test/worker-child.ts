// A worker in its own process, for the crash tests: it runs tasks from the queue and, at the point the
// test names (before or after a tool's effect, or at the link that would hold a tool's result), reports
// on stdout and hangs until the parent kills it.
import { createWorker } from "../src/index";
import { openQueue, tools, workerOptions, type BrainChoice } from "./fixture";
import { holdResultLink } from "./hold-result-link";

export interface ChildSettings {
  url: string;
  schema: string;
  /** `step 3`, `deploy 0`: the call to hang in. */
  hangAt: string;
  /** Hang before the effect is recorded (it never happened) or after (it did). Default after. */
  hangWhen?: "before" | "after";
  /** Hang this long, then go on (a worker frozen, then thawed); default: hang for good. */
  hangMs?: number;
  /** The loopback Chat Completions server to use instead of the faux script. */
  baseUrl?: string;
  /**
   * Hang the statement that would write the run's n-th link holding tool results (the n-th result,
   * where each turn makes one call): the tool has returned and its result is in the run, but the
   * link (and the `tool_result` event riding with it) never reaches the database.
   */
  hangAtResultLink?: number;
  /** On SIGTERM, stop as a host's shutdown does (`worker.stop(0)`, then the queue), then exit. */
  stopOnSigterm?: boolean;
}

const settings = JSON.parse(process.argv[2]!) as ChildSettings;
const queue = openQueue(settings.url, settings.schema);
await queue.start();
const hang = async (name: string, n: number) => {
  if (`${name} ${n}` !== settings.hangAt) return;
  process.stdout.write(`hanging at ${name} ${n}\n`);
  await new Promise((resolve) => (settings.hangMs === undefined ? undefined : setTimeout(resolve, settings.hangMs)));
};
if (settings.hangAtResultLink !== undefined) holdResultLink(queue.pool, settings.hangAtResultLink);
const hooks = settings.hangWhen === "before" ? { before: hang } : { after: hang };
const brain: BrainChoice | undefined = settings.baseUrl ? { baseUrl: settings.baseUrl } : undefined;
const worker = createWorker(workerOptions(queue, tools(queue.pool, settings.schema, hooks), brain));
await worker.start();
if (settings.stopOnSigterm)
  process.once("SIGTERM", () => {
    void worker
      .stop(0)
      .then(() => queue.stop())
      .then(() => process.exit(0));
  });
process.stdout.write("ready\n");
