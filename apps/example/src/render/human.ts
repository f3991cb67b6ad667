import type { AppEvent, EventSink, Seat } from "./events";
import { Spinner } from "./spinner";
import { formatPercent, formatUsd, summaryTable } from "./table";

export interface HumanOptions {
  write: (text: string) => void;
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

const SEAT_STYLE: Record<Seat, Style> = {
  student: "cyan",
  teacher: "magenta",
  helper: "blue",
  classifier: "yellow",
  agent: "cyan",
};

/** One line of text per event, indented under its scenario, for a person to follow as it happens. */
export function humanSink(options: HumanOptions): EventSink {
  const paint = (style: Style, text: string) =>
    options.color ? `\x1b[${CODES[style][0]}m${text}\x1b[${CODES[style][1]}m` : text;
  const spinner = options.tty ? new Spinner(options.write) : undefined;
  let promptOpen = false;
  const print = (text: string) => {
    spinner?.stop();
    if (promptOpen && !options.inputEchoes) options.write("\n");
    promptOpen = false;
    options.write(`${text}\n`);
  };
  const seat = (name: Seat) => paint(SEAT_STYLE[name], name.padEnd(7));

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
        case "model_call":
          if (event.phase === "start") spinner?.start(`${event.seat} · ${event.model} thinking…`);
          else spinner?.stop();
          return;
        case "turn": {
          if (event.text.trim() === "") return;
          // The teacher's advice is shown, parsed, by its escalation line.
          if (event.seat === "teacher" && event.text.trim().startsWith("{")) return;
          const check = event.seat === "helper" ? helperVerdict(event.text) : undefined;
          if (check) print(`   ${seat(event.seat)} ${check}`);
          else print(`   ${seat(event.seat)} ${paint("dim", "says")} ${oneLine(event.text, 220)}`);
          return;
        }
        case "tool_call":
          print(
            `   ${seat(event.seat)} ${paint("bold", "→")} ${oneLine(event.name, 80)} ${oneLine(JSON.stringify(event.arguments), 160)}`,
          );
          return;
        case "verdict": {
          const by = event.model ? paint("dim", ` (classifier ${event.model})`) : "";
          const label =
            event.verdict === "allow"
              ? paint("green", "✓ allowed")
              : event.verdict === "block"
                ? paint("red", "✗ BLOCKED")
                : paint("yellow", `? ${event.verdict.replace("_", " ")} — fails closed`);
          print(
            `   ${paint("yellow", "auto   ")} ${label} ${oneLine(event.tool, 80)}${event.reason ? `: ${oneLine(event.reason, 300)}` : ""}${by}`,
          );
          return;
        }
        case "tool_result": {
          const mark = event.isError ? paint("red", "✗") : paint("green", "✓");
          print(`   ${" ".repeat(7)} ${mark} ${oneLine(event.name, 80)}: ${oneLine(event.text, 160)}`);
          return;
        }
        case "escalation":
          print(
            `   ${paint("magenta", "⚑ escalation")} #${event.attempt} (${event.trigger}) → teacher${event.takeover ? " takes over" : " advises"}, confidence ${event.confidence}/3`,
          );
          if (event.correction)
            print(`   ${" ".repeat(7)} ${paint("dim", "correction:")} ${oneLine(event.correction, 200)}`);
          if (event.strategy)
            print(`   ${" ".repeat(7)} ${paint("dim", "strategy:  ")} ${oneLine(event.strategy, 200)}`);
          if (event.nextStep)
            print(`   ${" ".repeat(7)} ${paint("dim", "next step: ")} ${oneLine(event.nextStep, 200)}`);
          return;
        case "strategies_retrieved":
          if (event.hits.length === 0) {
            print(`   ${paint("blue", "memory ")} before the run: no stored strategy matched (scope "${event.scope}")`);
          } else {
            print(
              `   ${paint("blue", "memory ")} before the run: ${event.hits.length} strateg${event.hits.length === 1 ? "y" : "ies"} retrieved (scope "${event.scope}") and put ahead of the objective:`,
            );
            for (const hit of event.hits)
              print(
                `   ${" ".repeat(7)} • ${oneLine(hit.strategy, 200)} ${paint("dim", `(score ${hit.score.toFixed(2)})`)}`,
              );
          }
          return;
        case "strategy_stored":
          print(
            `   ${paint("blue", "memory ")} strategy stored (scope "${event.scope}", confidence ${event.confidence}/3): ${oneLine(event.strategy, 200)}`,
          );
          return;
        case "notice":
          print(paint("dim", `   notice  [${event.code}] ${oneLine(event.message, 200)}`));
          return;
        case "approval_request": {
          const why =
            event.kind === "ask" ? "needs your approval" : `needs your approval (${event.kind.replace(/_/g, " ")})`;
          print(
            `   ${paint("yellow", "?")} ${oneLine(event.tool, 80)} ${oneLine(JSON.stringify(event.arguments), 160)} ${why}${event.reason ? `: ${oneLine(event.reason, 300)}` : ""}`,
          );
          options.write(`     ${paint("bold", "[y]es / [n]o / anything else parks it:")} `);
          promptOpen = true;
          return;
        }
        case "parked":
          print(
            `   ${paint("yellow", "⏸")} ${oneLine(event.tool, 80)} ${oneLine(JSON.stringify(event.arguments), 120)} waits for a person's approval`,
          );
          print(`   ${" ".repeat(7)} saved to ${event.file}`);
          print(`   ${" ".repeat(7)} finish it: ${paint("bold", event.resume)}`);
          return;
        case "result": {
          const s = event.summary;
          const ok = s.status === "completed";
          const mark = ok ? paint("green", "✔") : s.status === "parked" ? paint("yellow", "⏸") : paint("red", "✘");
          print(
            `   ${mark} ${paint("bold", s.status)}${event.terminal.code === s.status ? "" : paint("dim", ` (${event.terminal.code})`)} — ${s.turns} turns, ${s.tokens} tokens, ${formatUsd(s.costMicroUsd)}, teacher ${formatPercent(s.teacherShare)}`,
          );
          if (event.output.trim() !== "")
            print(`   ${" ".repeat(7)} ${paint("dim", "answer:")} ${oneLine(event.output, 300)}`);
          else if (!ok && s.status !== "parked") print(`   ${" ".repeat(7)} ${oneLine(event.terminal.message, 300)}`);
          return;
        }
        case "summary":
          print("");
          print(summaryTable(event.rows));
          return;
        case "error":
          print(paint("red", `error [${event.code}]: ${oneLine(event.message, 2_000)}`));
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

function oneLine(text: string, max: number): string {
  // Text from files, tools and models reaches a terminal: no escape sequence of theirs may move the cursor, recolour or retitle it.
  const flat = text
    .replace(/\s+/g, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function wrap(text: string, indent: string, width = 96): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width - indent.length) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join("\n");
}
