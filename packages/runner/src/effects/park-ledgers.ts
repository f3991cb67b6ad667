import { randomUUID } from "node:crypto";
import { mkdir, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { ParkLedger } from "../vocabulary/park-ledger";

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
      // A failed mkdir is not remembered: the folder may be fixed and the next claim succeed.
      ready ??= mkdir(dir, { recursive: true }).catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      await ready;
      const path = join(dir, `${parkId}.claimed`);
      let handle;
      try {
        handle = await open(path, "wx");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
      try {
        await handle.writeFile(`${new Date().toISOString()} ${randomUUID()}\n`);
        await handle.close();
      } catch (error) {
        // A claim that could not be written whole is taken back, so it is not read as a replay.
        await handle.close().catch(() => undefined);
        await unlink(path).catch(() => undefined);
        throw error;
      }
      return true;
    },
  };
}
