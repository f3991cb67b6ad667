import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds (user + system) a live process used so far, or undefined once it is gone. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * CPU of processes that come and go (workers killed mid-run, database backends whose connection
 * closed): each pid's last reading is kept, so a process that died still counts what it used up to
 * the last sample.
 */
export function cpuLedger() {
  const last = new Map<number, number>();
  return {
    sample(pids: Iterable<number>) {
      for (const pid of pids) {
        const seconds = processCpuSeconds(pid);
        if (seconds !== undefined) last.set(pid, seconds);
      }
    },
    total: () => [...last.values()].reduce((sum, s) => sum + s, 0),
  };
}

/**
 * CPU milliseconds the main thread of a live process used so far, to the nanosecond
 * (`/proc/<pid>/schedstat`), where `/proc/<pid>/stat` counts in 10 ms ticks: fine enough to read
 * around one run of a few turns. A PostgreSQL backend has only that one thread.
 */
export function threadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}
