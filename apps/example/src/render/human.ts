import type { AppEvent, EventSink, Speaker } from "./events";
import { councilLines, reportedFindings, reviewerTurn } from "./council-lines";
import { oneLine } from "./one-line";
import { briefCallLines, fullCallLines } from "./pending-call";
import { wrap } from "./wrap";
import { Spinner } from "./spinner";
import { formatPercent, formatTokens, formatUsd, summaryTable } from "./table";

export interface HumanOptions {
  /** Progress: every line but the model's streamed text. */
  write: (text: string) => void;
  /**
   * Where the model's text goes as it arrives (`x-agent run`: stdout, while progress goes to stderr).
   * Absent: text is shown once per turn, as a `says` line, with the progress.
   */
  text?: (text: string) => void;
  /** Errors; default `write`. */
  error?: (text: string) => void;
  /** The width the closing table must fit (a terminal's columns). */
  columns?: number;
  /** Colours and the spinner: only for a terminal. */
  tty: boolean;
  color: boolean;
  /** A terminal echoes the answer to an approval prompt, newline included; piped input does not. */
  inputEchoes?: boolean;
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;
type Style = keyof typeof CODES;

const SPEAKER_STYLE: Record<Speaker, Style> = {
  student: "cyan",
  teacher: "magenta",
  helper: "blue",
  classifier: "yellow",
  agent: "cyan",
  child: "green",
  reviewer: "blue",
};

/** One line of text per event, indented under its scenario, for a person to follow as it happens. */
export function humanSink(options: HumanOptions): EventSink {
  const paint = (style: Style, text: string) =>
    options.color ? `\x1b[${CODES[style][0]}m${text}\x1b[${CODES[style][1]}m` : text;
  const spinner = options.tty ? new Spinner(options.write) : undefined;
  /** The streamed text's line is open (no newline yet): it is closed before any progress line. */
  let textOpen = false;
  let streamed = false;
  const closeText = () => {
    if (textOpen) options.text?.("\n");
    textOpen = false;
  };
  let promptOpen = false;
  const print = (text: string) => {
    spinner?.stop();
    closeText();
    if (promptOpen && !options.inputEchoes) options.write("\n");
    promptOpen = false;
    options.write(`${text}\n`);
  };
  const speaker = (name: Speaker) => paint(SPEAKER_STYLE[name], name.padEnd(7));
  const prompt = () => {
    options.write(`     ${paint("bold", "[y]es / [n]o / [p]ark it for later / [v]iew all of it:")} `);
    promptOpen = true;
  };

  return {
    emit(event: AppEvent) {
      switch (event.type) {
        case "banner":
          print(paint("bold", event.text));
          return;
        case "scenario":
          print("");
          print(paint("bold", `━━ ${event.title} ${"━".repeat(Math.max(3, 66 - event.title.length))}`));
          print(paint("dim", wrap(event.about, "   ")));
          return;
        case "note":
          print(paint("dim", `   ${event.text}`));
          return;
        case "eval_report":
          // Classifier reasons are model text: no control character of theirs reaches the terminal.
          for (const line of event.text.trimEnd().split("\n"))
            // eslint-disable-next-line no-control-regex
            print(line.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd"));
          return;
        case "model_call":
          if (event.phase === "start") spinner?.start(`${event.speaker} · ${event.model} thinking…`);
          else {
            spinner?.stop();
            closeText();
          }
          return;
        case "text_delta": {
          if (!options.text) return;
          spinner?.stop();
          const clean = streamSafe(event.delta);
          if (clean === "") return;
          options.text(clean);
          textOpen = !clean.endsWith("\n");
          streamed = true;
          return;
        }
        case "turn": {
          if (event.text.trim() === "") return;
          // Already on screen, as it streamed.
          if (options.text && (event.speaker === "agent" || event.speaker === "student")) return;
          // The teacher's advice is shown, parsed, by its escalation line.
          if (event.speaker === "teacher" && event.text.trim().startsWith("{")) return;
          const check =
            event.speaker === "helper"
              ? helperVerdict(event.text)
              : event.speaker === "reviewer"
                ? reviewerTurn(event.model, event.text)
                : undefined;
          if (check) print(`   ${speaker(event.speaker)} ${check}`);
          else print(`   ${speaker(event.speaker)} ${paint("dim", "says")} ${oneLine(event.text, 220)}`);
          return;
        }
        case "tool_call":
          print(
            `   ${speaker(event.speaker)} ${paint("bold", "→")} ` +
              `${oneLine(event.name, 80)} ${oneLine(JSON.stringify(event.arguments), 160)}`,
          );
          return;
        case "verdict": {
          const whose = event.station === "ancestor" ? "an ancestor run's frozen classifier" : "classifier";
          const attempt = event.attempt !== undefined ? `, attempt ${event.attempt}` : "";
          const reused = event.source === "reused" ? ", reused from the identical call" : "";
          const author =
            event.ruleId !== undefined
              ? `host rule ${oneLine(event.ruleId, 80)}${event.station === "ancestor" ? " of an ancestor run" : ""}`
              : event.model
                ? `${whose} ${event.model}${attempt}`
                : undefined;
          const by = author ? paint("dim", ` (${author}${reused})`) : "";
          const label =
            event.verdict === "allow"
              ? paint("green", "✓ allowed")
              : event.verdict === "block"
                ? paint("red", "✗ BLOCKED")
                : paint("yellow", `? ${event.verdict.replace("_", " ")} — fails closed`);
          print(
            `   ${paint("yellow", "auto   ")} ${label} ` +
              `${oneLine(event.tool, 80)}${event.reason ? `: ${oneLine(event.reason, 300)}` : ""}${by}`,
          );
          return;
        }
        case "tool_result": {
          const mark = event.isError ? paint("red", "✗") : paint("green", "✓");
          print(`   ${" ".repeat(7)} ${mark} ${oneLine(event.name, 80)}: ${oneLine(event.text, 160)}`);
          return;
        }
        case "escalation": {
          const advised =
            event.strategy !== undefined || event.correction !== undefined || event.nextStep !== undefined;
          const outcome = event.takeover
            ? `teacher takes over, confidence ${event.confidence}/3`
            : advised
              ? `teacher advises, confidence ${event.confidence}/3`
              : "the teacher gave no advice (no usable reply); the student's result stands";
          print(`   ${paint("magenta", "⚑ escalation")} #${event.attempt} (${event.trigger}) → ${outcome}`);
          if (event.correction)
            print(`   ${" ".repeat(7)} ${paint("dim", "correction:")} ${oneLine(event.correction, 200)}`);
          if (event.strategy)
            print(`   ${" ".repeat(7)} ${paint("dim", "strategy:  ")} ${oneLine(event.strategy, 200)}`);
          if (event.nextStep)
            print(`   ${" ".repeat(7)} ${paint("dim", "next step: ")} ${oneLine(event.nextStep, 200)}`);
          return;
        }
        case "strategies_retrieved":
          if (event.hits.length === 0) {
            print(`   ${paint("blue", "memory ")} before the run: no stored strategy matched (scope "${event.scope}")`);
          } else {
            print(
              `   ${paint("blue", "memory ")} before the run: ${event.hits.length} ` +
                `strateg${event.hits.length === 1 ? "y" : "ies"} retrieved ` +
                `(scope "${event.scope}") and put ahead of the objective:`,
            );
            for (const hit of event.hits)
              print(
                `   ${" ".repeat(7)} • ${oneLine(hit.strategy, 200)} ` +
                  `${paint("dim", `(score ${hit.score.toFixed(2)})`)}`,
              );
          }
          return;
        case "strategy_stored":
          print(
            `   ${paint("blue", "memory ")} strategy stored (scope "${event.scope}", ` +
              `confidence ${event.confidence}/3): ${oneLine(event.strategy, 200)}`,
          );
          return;
        case "queued":
          if (options.text) options.text(`${event.id}\n`);
          else print(event.id);
          return;
        case "retry": {
          const seconds = event.delayMs >= 1000 ? `${Math.round(event.delayMs / 100) / 10} s` : `${event.delayMs} ms`;
          const why = event.errorKind ? `${event.errorKind.replace(/_/g, " ")} — ` : "";
          print(
            paint("yellow", `   retry   ${event.model}: ${why}retrying in ${seconds} (${event.attempt}/${event.of})`),
          );
          return;
        }
        case "notice":
          // The verdict line above already says who blocked the call and why.
          if (event.code === "auto_mode.blocked") return;
          print(paint("dim", `   notice  [${event.code}] ${oneLine(event.message, 200)}`));
          return;
        case "approval_request": {
          const why =
            event.kind === "ask" ? "needs your approval" : `needs your approval (${event.kind.replace(/_/g, " ")})`;
          print(
            `   ${paint("yellow", "?")} ${oneLine(event.tool, 80)} ` +
              `${why}${event.reason ? `: ${oneLine(event.reason, 300)}` : ""}`,
          );
          for (const line of briefCallLines(event, "press v to view")) print(`     ${line}`);
          prompt();
          return;
        }
        case "approval_view":
          for (const line of fullCallLines(event)) print(`     ${line}`);
          prompt();
          return;
        case "approval_reask":
          print(
            `     ${paint("yellow", `"${oneLine(event.answer, 40)}" is not an answer`)}: ` +
              "y approves, n denies, p parks it, v shows all of it",
          );
          prompt();
          return;
        case "parked":
          print(`   ${paint("yellow", "⏸")} ${oneLine(event.tool, 80)} waits for a person's approval`);
          for (const line of briefCallLines(event, `see all of it: ${event.show}`))
            print(`   ${" ".repeat(7)} ${line}`);
          print(`   ${" ".repeat(7)} saved to ${event.file}`);
          print(`   ${" ".repeat(7)} finish it: ${paint("bold", event.resume)}`);
          return;
        case "pending_call": {
          const heading =
            event.decision === "approve"
              ? paint("green", "approving this call:")
              : event.decision === "deny"
                ? paint("red", "denying this call:")
                : paint("yellow", "⏸ this call waits for a person's decision:");
          print(`   ${heading}`);
          for (const line of fullCallLines(event)) print(`     ${line}`);
          if (event.decide) print(`     decide: ${paint("bold", event.decide)}`);
          return;
        }
        case "result": {
          const s = event.summary;
          const ok = s.status === "completed";
          const mark = ok ? paint("green", "✔") : s.status === "parked" ? paint("yellow", "⏸") : paint("red", "✘");
          print(
            `   ${mark} ` +
              `${paint("bold", s.status)}` +
              `${event.terminal.code === s.status ? "" : paint("dim", ` (${event.terminal.code})`)} ` +
              `— ${s.turns} turns, ${formatTokens(s.tokens, s.tokensEstimated)} ` +
              `tokens${s.tokensEstimated ? " (estimated)" : ""}, ` +
              `${formatUsd(s.costMicroUsd)}, teacher ${formatPercent(s.teacherShare)}`,
          );
          for (const child of s.children ?? [])
            print(
              `   ${" ".repeat(7)} ${paint("green", "└ sub-run")} ` +
                `${oneLine(child.label, 80)}: ${child.status} — ${child.turns} ` +
                `turns, ${formatTokens(child.tokens, child.tokensEstimated)} ` +
                `tokens, ${formatUsd(child.costMicroUsd)} ${paint("dim", "(included above)")}`,
            );
          // The answer goes where the model's text goes (stdout, when progress has stderr), whole.
          if (event.output.trim() !== "" && !streamed && options.text) options.text(`${event.output.trimEnd()}\n`);
          else if (event.output.trim() !== "" && !streamed)
            print(`   ${" ".repeat(7)} ${paint("dim", "answer:")} ${oneLine(event.output, 300)}`);
          else if (!ok && s.status !== "parked") print(`   ${" ".repeat(7)} ${oneLine(event.terminal.message, 300)}`);
          return;
        }
        case "route":
          print(
            `   ${paint("bold", "route  ")} ` +
              `${paint("bold", event.mode === "council" ? "a council" : "teacher mode")}: ` +
              `${oneLine(event.reason, 200)}`,
          );
          return;
        case "council": {
          const lines = councilLines(event, options.columns ? options.columns - 3 : undefined);
          for (const line of lines.reviewers) print(`   ${speaker("reviewer")} ${line}`);
          print(lines.table.replace(/^/gm, "   "));
          const ok = event.status === "completed";
          print(`   ${ok ? paint("green", "✔") : paint("red", "✘")} ${paint("bold", event.status)} ${lines.outcome}`);
          for (const line of lines.disputes) print(`   ${" ".repeat(7)} ${paint("dim", line)}`);
          // `x-agent run --mode council > findings.txt` keeps the reported findings: they are the answer.
          if (options.text) {
            closeText();
            for (const line of reportedFindings(event)) options.text(`${line}\n`);
            streamed = true;
          }
          return;
        }
        case "summary":
          print("");
          print(summaryTable(event.rows, options.columns));
          return;
        case "error":
          spinner?.stop();
          closeText();
          (options.error ?? options.write)(
            `${paint("red", `error [${event.code}]: ${oneLine(event.message, 2_000)}`)}\n`,
          );
          return;
      }
    },
    close() {
      spinner?.stop();
    },
  };
}

/** Prints each event as one JSON line. */
export function jsonSink(write: (text: string) => void): EventSink {
  return {
    emit: (event) => write(`${JSON.stringify(event)}\n`),
    close: () => {},
  };
}

/** The monitor's and verifier's JSON replies, as words. */
function helperVerdict(text: string): string | undefined {
  try {
    const reply = JSON.parse(text) as { stuck?: unknown; pass?: unknown; reason?: unknown };
    const reason = typeof reply.reason === "string" ? ` — ${oneLine(reply.reason, 160)}` : "";
    if (typeof reply.stuck === "boolean") return `stuck check: ${reply.stuck ? "stuck" : "making progress"}${reason}`;
    if (typeof reply.pass === "boolean") return `verifier: ${reply.pass ? "pass" : "FAIL"}${reason}`;
  } catch {
    // Not the JSON form: shown as plain text.
  }
  return undefined;
}

/** Streamed model text keeps its line breaks and tabs; no other control character reaches the terminal. */
function streamSafe(text: string): string {
  const crlf = /\r\n/g;
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
  return text.replace(crlf, "\n").replace(control, "\ufffd");
}
