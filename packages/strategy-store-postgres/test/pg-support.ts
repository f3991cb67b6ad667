import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";

/** A schema per test run, so runs against a kept server never meet. */
export function runSchema(label: string): string {
  return `strategy_${label}_${randomBytes(5).toString("hex")}`;
}

/** PGlite with pgvector; costs seconds and hundreds of MB, so one per test file. */
export function startPglite(dataDir?: string): Promise<PGlite> {
  return PGlite.create(dataDir, { extensions: { vector } });
}

export const PG_URL = process.env.PG_URL;
