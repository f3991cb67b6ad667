export type Mode = "http" | "inproc";

export interface HarnessContext {
  /** Loopback server base URL, ending in /v1 (http mode only). */
  baseURL: string;
}

/** Runs one task of the workload and resolves to the final answer text. */
export type TaskFn = (task: number) => Promise<string>;

export interface Harness {
  /** Row label. */
  label: string;
  /** Packages and versions this row exercises, for the report. */
  packages: string[];
  /** Returns the task function, or a reason the mode is not available. */
  setup(mode: Mode, ctx: HarnessContext): Promise<TaskFn | { unavailable: string }>;
}
