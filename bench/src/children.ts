// The parent's handle on one measuring child (see child.ts): start it, drive its passes, collect its
// result. A child that dies, hangs or says something unexpected becomes a `failed` result, never a
// crash of the whole run.
import { fork, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildCommand, ChildConfig, ChildMessage, ChildResult, PassResult } from "./child";

const here = dirname(fileURLToPath(import.meta.url));
/**
 * Our packages load from their built `dist` by default, like the peers' published JS: loaded from
 * source through tsx they would carry its esbuild transform (`keepNames` wrappers on every closure).
 * `--source` (X_BENCH_SOURCE=1) loads `src` instead, for a quick look without building.
 *
 * V8's memory reducer is off in every child: a child waits while the other rows run their passes
 * (half a minute at c=256 in a full run), and after some seconds without allocating the reducer
 * shrinks the heap, so the next pass paid for growing it back — ours 2.5× its steady cost at c=256,
 * the SDK loop about 1.2× (bench README, findings of 2026-12-05). A process under steady load never
 * sees the reducer; the wait is the bench's own.
 */
export const execArgv = () => [
  ...(process.env.X_BENCH_SOURCE === "1" ? ["--conditions=@x/source"] : []),
  "--import",
  "tsx",
  "--no-memory-reducer",
];
/**
 * The bench's own limit on one step of a child (set-up with its warm-up, or one pass): a hung child
 * must not stall the run, but a slow library on a loaded machine is measured, not cut (LangGraph's
 * c=256 pass took over 180 s at load 60).
 */
const STEP_TIMEOUT_MS = 900_000;

export class MeasuringChild {
  private readonly proc: ChildProcess;
  private stderr = "";
  private readonly inbox: ChildMessage[] = [];
  private waiter: ((m: ChildMessage) => void) | undefined;
  /** Set once the child has reported its final result (or died). */
  final: ChildResult | undefined;

  constructor(readonly cfg: ChildConfig) {
    this.proc = fork(join(here, "child.ts"), [JSON.stringify(cfg)], {
      execArgv: execArgv(),
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    this.proc.stderr!.on("data", (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    this.proc.on("message", (m) => this.deliver(m as ChildMessage));
    this.proc.on("exit", (code, signal) =>
      this.deliver({
        type: "final",
        result: this.failed(`child exited (${code ?? signal}) without a result: ${this.tail()}`),
      }),
    );
  }

  /** Resolves true when set up and warmed up, false when the child already has a final result. */
  async ready(): Promise<boolean> {
    const m = await this.next();
    return m.type === "ready";
  }

  /** One measured pass, or undefined when the child failed (its result is then in `final`). */
  async pass(): Promise<PassResult | undefined> {
    if (this.final) return undefined;
    this.send({ type: "pass" });
    const m = await this.next();
    return m.type === "pass" ? m.pass : undefined;
  }

  async finish(): Promise<ChildResult> {
    if (!this.final) {
      this.send({ type: "finish" });
      while (!this.final) await this.next();
    }
    return this.final;
  }

  private send(c: ChildCommand) {
    if (this.proc.connected) this.proc.send(c);
  }

  private deliver(m: ChildMessage) {
    if (this.final) return;
    if (m.type === "final") this.final = m.result;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(m);
    } else {
      this.inbox.push(m);
    }
  }

  private next(): Promise<ChildMessage> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.final) return Promise.resolve({ type: "final", result: this.final });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.proc.kill("SIGKILL");
        this.deliver({
          type: "final",
          result: this.failed(`the bench's step limit: no answer after ${STEP_TIMEOUT_MS / 1000}s`),
        });
      }, STEP_TIMEOUT_MS);
      this.waiter = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  }

  private failed(reason: string): ChildResult {
    return { status: "failed", label: this.cfg.harness, packages: [], reason };
  }

  private tail() {
    return this.stderr.trim().split("\n").slice(-3).join(" | ");
  }
}
