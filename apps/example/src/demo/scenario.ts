import type { CliIo } from "../io";
import type { RunSummary } from "../render/events";

/** What every scenario gets: where the sandbox and the stores are, and how to report. */
export interface DemoContext {
  io: CliIo;
  sandbox: string;
  shellTimeoutMs: number;
  /** Pause before each scripted reply, so a person can follow. */
  thinkMs: number;
  /** SQLite path or postgres:// URL; each teacher-mode run opens it afresh. */
  storeTarget: string;
  scope: string;
  parkDir: string;
  parkOnly: boolean;
  /** Runs `resume <file> --approve` as a separate process and reports its events; returns its row. */
  resumeElsewhere: (file: string) => Promise<RunSummary | undefined>;
}

/** A scenario's rows for the closing table, and whether it showed what it is meant to show. */
export interface ScenarioOutcome {
  rows: RunSummary[];
  ok: boolean;
}

/** One scenario of the demo: its name, its banner, and how it runs. */
export interface Scenario {
  name: string;
  title: string;
  about: string;
  run(ctx: DemoContext): Promise<ScenarioOutcome>;
}
