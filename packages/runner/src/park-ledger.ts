import { randomUUID } from "node:crypto";
import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";

/**
 * Consumed park ids. `claim` returns true exactly once per id — across every process sharing the
 * ledger — so a parked call executes at most once however often the park is handed back.
 */
export interface ParkLedger {
  claim(parkId: string): Promise<boolean>;
}

/** One process, one runner: the default when the host supplies no ledger. */
export function createMemoryParkLedger(): ParkLedger {
  const claimed = new Set<string>();
  return {
    async claim(parkId) {
      if (claimed.has(parkId)) return false;
      claimed.add(parkId);
      return true;
    },
  };
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A ledger in a directory: one file per claimed id, created with O_EXCL (`wx`), which the OS makes
 * atomic — of two processes claiming the same id, exactly one creates the file.
 */
export function createFileParkLedger(dir: string): ParkLedger {
  let ready: Promise<unknown> | undefined;
  return {
    async claim(parkId) {
      if (!SAFE_ID.test(parkId)) throw new TypeError(`park id is not a safe file name: ${JSON.stringify(parkId)}`);
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      try {
        const handle = await open(join(dir, `${parkId}.claimed`), "wx");
        await handle.writeFile(`${new Date().toISOString()} ${randomUUID()}\n`);
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
    },
  };
}
