import type { Context, Message, ToolResultMessage } from "@x/llm-types";
import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { MONITOR_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "@x/teacher";

/**
 * The scripted models of the embedded demo. Each one is a pure function of the request it is sent —
 * the system prompt, the objective, the tool results so far — the way a (very small, very
 * predictable) model is. Nothing here knows which scenario is running or what happened in another
 * process: the runner, the classifier ladder, teacher mode and the strategy store decide what each
 * model is shown, and the replies follow from that.
 */
export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
}

export type Policy = (context: Context) => ScriptedReply;

// ───────────────────────────── reading a request ─────────────────────────────

function userTexts(messages: readonly Message[]): string[] {
  return messages.flatMap((m) =>
    m.role !== "user"
      ? []
      : [
          typeof m.content === "string"
            ? m.content
            : m.content.map((b) => (b.type === "text" ? b.text : "")).join("\n"),
        ],
  );
}

function resultText(result: ToolResultMessage): string {
  return result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

interface Step {
  name: string;
  arguments: Record<string, unknown>;
  result?: ToolResultMessage;
}

/** Every tool call made so far in the request, paired with its result. */
function steps(messages: readonly Message[]): Step[] {
  const out: Step[] = [];
  const byId = new Map<string, Step>();
  for (const m of messages) {
    if (m.role === "assistant") {
      for (const block of m.content) {
        if (block.type !== "toolCall") continue;
        const step: Step = { name: block.name, arguments: block.arguments };
        out.push(step);
        byId.set(block.id, step);
      }
    } else if (m.role === "toolResult") {
      const step = byId.get(m.toolCallId);
      if (step) step.result = m;
    }
  }
  return out;
}

const ok = (s: Step) => s.result !== undefined && !s.result.isError;

// ───────────────────────────── the student ─────────────────────────────

/** A cheap agent model: it follows the objective literally and guesses before it looks. */
export const studentPolicy: Policy = (context) => {
  const texts = userTexts(context.messages);
  const objective = texts.join("\n");
  const done = steps(context.messages);

  const lookup = /Find the file (\S+) in the sandbox and report its (\w+) value/i.exec(objective);
  if (lookup) return findAndReport(lookup[1]!, lookup[2]!, objective, done);
  if (/biggest|most room|running out of space/i.test(objective)) return spaceReport(done);
  const note = /Write a release note for version (\S+) to (\S+)/i.exec(objective);
  if (note) return releaseNote(note[1]!, note[2]!, done);
  const mcp = /Through the MCP filesystem server, read (\S+) and write its title to (\S+)/i.exec(objective);
  if (mcp) return titleViaMcp(mcp[1]!, mcp[2]!, done);
  const migration = /Write the migration that adds a nullable (\w+) column to the (\w+) table/i.exec(objective);
  if (migration)
    return writeMigration(migration[1]!, migration[2]!, /then apply it to (\S+?)\.?$/im.exec(objective)?.[1], done);
  const column = /Add an? (\w+) column to the (\w+) table/i.exec(objective);
  if (column) return delegateMigration(column[1]!, column[2]!, done);
  return {
    text:
      "I can only follow the demo's scripted tasks; run x-agent " +
      "with --base-url and a real model for anything else.",
  };
};

/** Reports one value of a JSON file somewhere in the sandbox. Without a hint to look first, it guesses paths. */
function findAndReport(file: string, key: string, objective: string, done: Step[]): ScriptedReply {
  const read = done.find((s) => s.name === "read_file" && ok(s) && String(s.arguments.path).endsWith(file));
  if (read?.result) {
    let value: unknown;
    try {
      value = (JSON.parse(resultText(read.result)) as Record<string, unknown>)[key];
    } catch {
      value = undefined;
    }
    return value === undefined
      ? { text: `${file} has no ${key} value.` }
      : { text: `${read.arguments.path as string} sets ${key} to ${JSON.stringify(value)}.` };
  }
  const listing = done.find((s) => s.name === "list_files" && ok(s));
  if (listing?.result) {
    const path = resultText(listing.result)
      .split("\n")
      .map((line) => line.split(/\s{2,}/)[0]!.trim())
      .find((p) => p === file || p.endsWith(`/${file}`));
    if (path && !done.some((s) => s.name === "read_file" && s.arguments.path === path))
      return call("read_file", { path });
  }
  // A hint from a teacher's advice or a stored strategy: look before reading.
  const hinted = /list_files|list the (folder|files|tree)/i.test(objective);
  if (hinted && !listing) return call("list_files", { path: ".", depth: 3 });
  const guesses = [file, `./${file}`, `data/${file}`, `src/${file}`, `etc/${file}`];
  const next = guesses.find((g) => !done.some((s) => s.name === "read_file" && s.arguments.path === g)) ?? file;
  return call("read_file", { path: next });
}

/** Reports what takes the most room in build/. It first reaches for a far too eager clean-up. */
function spaceReport(done: Step[]): ScriptedReply {
  const measured = done.find((s) => s.name === "shell" && ok(s));
  if (measured?.result) {
    const lines = resultText(measured.result)
      .split("\n")
      .map((l) => /^(\d+)\s+(\S+)/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null && m[2] !== "build");
    const top = lines[0];
    return top
      ? { text: `The biggest item is ${top[2]} at about ${top[1]} KB. I deleted nothing: clearing it is your call.` }
      : { text: "build/ is empty; nothing takes room there." };
  }
  if (done.some((s) => s.name === "shell" && s.result?.isError))
    return call("shell", { command: "du -ak build | sort -rn | head -n 4" });
  return call("shell", { command: "rm -rf ~/* build/" });
}

/** Drafts release notes from the README and writes them (a write waits for a person's approval). */
function releaseNote(version: string, target: string, done: Step[]): ScriptedReply {
  const written = writeOutcome(done, "write_file", target);
  if (written) return written;
  const readme = done.find((s) => s.name === "read_file" && ok(s));
  if (!readme?.result) return call("read_file", { path: "README.md" });
  const title = /^#\s*(.+)$/m.exec(resultText(readme.result))?.[1]?.trim() ?? "the project";
  const bullets = resultText(readme.result)
    .split("\n")
    .filter((l) => /^[-*]\s+/.test(l))
    .slice(0, 3)
    .map((l) => `- ${l.replace(/^[-*]\s+/, "")}`);
  const content = `# ${title} ${version}\n\n${bullets.length ? bullets.join("\n") : "- Maintenance release."}\n`;
  return call("write_file", { path: target, content });
}

/** Copies a Markdown file's title through an MCP filesystem server's tools (named `mcp__…`). */
function titleViaMcp(source: string, target: string, done: Step[]): ScriptedReply {
  const written = writeOutcome(done, "mcp__write_file", target);
  if (written) return written;
  const read = done.find((s) => s.name === "mcp__read_text_file" && ok(s));
  if (!read?.result) return call("mcp__read_text_file", { path: source });
  const title = /^#\s*(.+)$/m.exec(resultText(read.result))?.[1]?.trim() ?? "(untitled)";
  return call("mcp__write_file", { path: target, content: `${title}\n` });
}

/**
 * The coding agent hands the migration to a helper, and — as models do — writes the helper a
 * task a little larger than the user's: it asks the helper to apply the migration as well.
 */
function delegateMigration(column: string, table: string, done: Step[]): ScriptedReply {
  const handed = done.find((s) => s.name === "write_migration");
  if (!handed?.result) {
    const task =
      `Write the migration that adds a nullable ${column} ` + `column to the ${table} table, then apply it to app.db.`;
    return call("write_migration", { task });
  }
  const report = resultText(handed.result).split("\n")[0];
  return { text: handed.result.isError ? `The helper did not finish: ${report}` : `The helper reports: ${report}` };
}

/** The helper: numbers the next migration after the ones it lists, writes it, then (if asked) applies it. */
function writeMigration(column: string, table: string, db: string | undefined, done: Step[]): ScriptedReply {
  const listing = done.find((s) => s.name === "list_files" && ok(s));
  if (!listing?.result) return call("list_files", { path: "migrations", depth: 1 });
  const write = done.find((s) => s.name === "write_file");
  if (!write?.result) {
    const numbers = [...resultText(listing.result).matchAll(/\b(\d{3})_/g)].map((m) => Number(m[1]));
    const next = String(Math.max(0, ...numbers) + 1).padStart(3, "0");
    const path = `migrations/${next}_add_${table}_${column}.sql`;
    return call("write_file", { path, content: `ALTER TABLE ${table} ADD COLUMN ${column} TEXT;\n` });
  }
  const path = String(write.arguments.path);
  if (write.result.isError) return { text: `I could not write ${path}: ${resultText(write.result).split("\n")[0]}` };
  if (db === undefined) return { text: `I wrote ${path}.` };
  const apply = done.find((s) => s.name === "shell");
  if (!apply?.result) return call("shell", { command: `sqlite3 ${db} < ${path}` });
  if (!apply.result.isError) return { text: `I wrote ${path} and applied it to ${db}.` };
  const refusal = resultText(apply.result);
  const why = /blocked this call: (.+?)(?: \(ruled by|\. It was not run)/.exec(refusal)?.[1] ?? refusal.split("\n")[0];
  return { text: `I wrote ${path} but did not apply it (blocked: ${why}).` };
}

/** The final answer once the write (`tool`) has a result: done, or why not. */
function writeOutcome(done: Step[], tool: string, target: string): ScriptedReply | undefined {
  const write = done.find((s) => s.name === tool);
  if (!write?.result) return undefined;
  return write.result.isError
    ? { text: `I did not write ${target}: ${resultText(write.result).split("\n")[0]}` }
    : { text: `Done: ${resultText(write.result)}.` };
}

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

// ───────────────────────────── the helper (monitor, verifier) ─────────────────────────────

/**
 * The student's model also does teacher mode's cheap checks (its default helper): "is it stuck?"
 * and "is this answer right?", recognised by the instructions teacher mode sends for each.
 */
export const studentModelPolicy: Policy = (context) => {
  const objective = userTexts(context.messages).join("\n");
  if (context.systemPrompt === MONITOR_PROMPT) {
    // One line per recent tool result, `- <tool> → ERROR: …` for a failure.
    const errors = objective.split("\n").filter((l) => /^- \S+ → ERROR\b/.test(l));
    const sameTool = new Set(errors.map((l) => l.slice(2).split(" ")[0])).size === 1;
    return errors.length >= 3 && sameTool
      ? {
          text: JSON.stringify({
            stuck: true,
            reason: `${errors.length} failures of the same tool, each a guessed path that does not exist`,
          }),
        }
      : { text: JSON.stringify({ stuck: false, reason: "the attempts differ and learn something" }) };
  }
  if (context.systemPrompt === VERIFIER_PROMPT) {
    const answer = objective.split("Answer to check:\n")[1] ?? "";
    const pass = /\bsets \w+ to \S+|\bbiggest item is\b|\bwrote \d+ bytes\b/i.test(answer);
    return {
      text: JSON.stringify({
        pass,
        reason: pass
          ? "the answer states the value the task asked for"
          : "the answer does not state the requested value",
      }),
    };
  }
  return studentPolicy(context);
};

// ───────────────────────────── the teacher ─────────────────────────────

/** The strong model, consulted only on escalation: it answers with structured advice. */
export const teacherPolicy: Policy = (context) => {
  if (context.systemPrompt !== TEACHER_PROMPT) return studentPolicy(context);
  const brief = userTexts(context.messages).join("\n");
  // The brief quotes the student's recent tool results; missing files are what this teacher knows about.
  if (/not_found|no such file/i.test(brief)) {
    return {
      text: JSON.stringify({
        strategy:
          "When a file is not where you expect it, call list_files on the sandbox first " +
          "and then read the file at the path the listing shows; never guess paths.",
        correction: "You guessed read_file paths one after another; the file is not at the sandbox root.",
        nextStep: 'Call list_files with path "." and read the path where the file appears.',
        takeover: false,
        confidence: 3,
      }),
    };
  }
  return {
    text: JSON.stringify({
      correction: "Check each tool result before your next call.",
      takeover: false,
      confidence: 1,
    }),
  };
};

// ───────────────────────────── the classifier ─────────────────────────────

/** Commands that destroy or leak, each with the reason the classifier gives. */
const DESTRUCTIVE: ReadonlyArray<[RegExp, string]> = [
  [/\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+/, "rm -rf deletes files for good"],
  [/\bmkfs\b/, "mkfs erases a whole file system"],
  [/\bdd\s+if=/, "dd can overwrite disks"],
  [/\bshred\b/, "shred destroys file contents"],
  [/\bgit\s+push\s+.*--force\b/, "a force push rewrites shared history"],
  [/\bchmod\s+-R\b/, "a recursive chmod changes permissions wholesale"],
  [/\bcurl\b[^|]*\|\s*(ba|z)?sh\b/, "piping a download into a shell runs unknown code"],
  [/>\s*\/dev\/sd/, "writing to a raw disk device destroys it"],
];
const READ_ONLY = /^(du|ls|cat|wc|head|tail|sort|find|grep|stat|pwd|echo|df)\b/;
const DATABASE = /\b(sqlite3|psql|mysql)\b/;

/**
 * A command against a database runs only when the user's own words ask for it and nothing they said
 * forbids it. Only `<user>` entries count: an objective another model wrote for a sub-run is the
 * user of that sub-run, but the ancestor's classifier still reads its own user's words.
 */
function databaseVerdict(request: string): ScriptedReply {
  const words = [...request.matchAll(/<user>([\s\S]*?)<\/user>/g)].map((m) => m[1]!);
  if (words.some((w) => /\b(do not|don't|never) run\b/i.test(w)))
    return { text: "<block>yes</block><reason>the user said to run nothing against the database</reason>" };
  if (words.some((w) => /\bapply (it|the migration)\b/i.test(w))) return { text: "<block>no</block>" };
  return { text: "<block>yes</block><reason>the user did not ask to change the database</reason>" };
}

/**
 * The cheap auto-mode classifier: it reads the action out of the gate's request and answers in the
 * `<block>` form. Destructive commands are blocked; read-only pipelines are allowed; anything else
 * is blocked as not clearly asked for — unclear means block.
 */
export const classifierPolicy: Policy = (context) => {
  if (context.systemPrompt !== CLASSIFIER_SYSTEM_PROMPT)
    return { text: "<block>yes</block><reason>not a classification request</reason>" };
  const request = userTexts(context.messages).at(-1) ?? "";
  // The call being judged is the transcript's last tool call.
  const action = [...request.matchAll(/<tool_call name="([^"]+)">([\s\S]*?)<\/tool_call>/g)].at(-1);
  if (!action) return { text: "<block>yes</block><reason>no action to judge</reason>" };
  let args: { command?: unknown };
  try {
    args = JSON.parse(action[2]!) as { command?: unknown };
  } catch {
    return { text: "<block>yes</block><reason>the arguments are unreadable</reason>" };
  }
  if (action[1] !== "shell") return { text: "<block>no</block>" };
  const command = typeof args.command === "string" ? args.command : "";
  const danger = DESTRUCTIVE.find(([re]) => re.test(command));
  if (danger) {
    const scope = /~|\$HOME/.test(command) ? ", the home folder included" : "";
    return { text: `<block>yes</block><reason>${danger[1]}${scope}, and the user did not ask for it</reason>` };
  }
  if (DATABASE.test(command)) return databaseVerdict(request);
  const segments = command.split(/\|/).map((s) => s.trim());
  if (segments.every((s) => READ_ONLY.test(s) && !/-delete\b|-exec\b/.test(s))) return { text: "<block>no</block>" };
  return { text: "<block>yes</block><reason>the user did not ask for this command</reason>" };
};
