// A worker in its own process, for the crash tests: it runs tasks from the queue and, at the point the
// test names, reports on stdout and hangs until the parent kills it with SIGKILL.
import { createWorker } from "../src/index";
import { openQueue, tools, workerOptions } from "./fixture";

const [url, schema, hangAt] = process.argv.slice(2) as [string, string, string];
const queue = openQueue(url, schema);
await queue.start();
const hang = async (name: string, n: number) => {
  if (`${name} ${n}` !== hangAt) return;
  process.stdout.write(`hanging at ${name} ${n}\n`);
  await new Promise(() => undefined);
};
const worker = createWorker(workerOptions(queue, tools(queue.pool, schema, { after: hang })));
await worker.start();
process.stdout.write("ready\n");
