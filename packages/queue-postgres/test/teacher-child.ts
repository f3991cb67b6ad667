// A worker in its own process that runs teacher tasks, for the crash tests: it hangs (until the parent
// kills it) in a tool call, or in the teacher's advice call, as the test names.
import { createWorker } from "../src/index";
import { openQueue } from "./fixture";
import { openStrategies, teacherBrain, teacherWorkerOptions } from "./teacher-fixture";
import type { ChildSettings } from "./worker-child";

const settings = JSON.parse(process.argv[2]!) as ChildSettings;
const queue = openQueue(settings.url, settings.schema);
await queue.start();
const strategies = await openStrategies(settings.url, settings.schema);
const hangForGood = (what: string) => {
  process.stdout.write(`hanging at ${what}\n`);
  return new Promise<void>(() => undefined);
};
const hold = settings.hangAt === "advice" ? () => hangForGood("advice") : undefined;
const after = async (name: string, n: number) => {
  if (`${name} ${n}` === settings.hangAt) await hangForGood(settings.hangAt);
};
const worker = createWorker(teacherWorkerOptions(queue, strategies, teacherBrain([], hold), { after }));
await worker.start();
process.stdout.write("ready\n");
