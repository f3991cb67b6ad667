import { tmpdir } from "node:os";
import type { Command, CommandName } from "../args";
import { wrap } from "../render/wrap";
import { describeConfinement, shellConfinement } from "../sandbox/confinement";
import { SCENARIOS } from "../demo/scenarios";

/** The help of the commands whose agents have the shell tool (and the main help) says whether it is confined here. */
const WITH_SHELL: ReadonlySet<CommandName | undefined> = new Set([
  undefined,
  "help",
  "demo",
  "run",
  "worker",
  "resume",
]);

export function helpText(command: Extract<Command, { name: "help" }>): string {
  const text = command.topic === undefined || command.topic === "help" ? HELP.main : HELP[command.topic];
  const here = WITH_SHELL.has(command.topic)
    ? `\n${wrap(`On this machine, ${describeConfinement(shellConfinement(tmpdir()))}.`, "", 100)}\n`
    : "";
  return `${text}\n${here}`;
}

export function scenariosText(): string {
  return `${SCENARIOS.map((s) => `${s.name.padEnd(10)} ${s.title.replace(/^\d+ · /, "")}`).join("\n")}\n`;
}

/** Each command's help text, and the main one. */
export const HELP: Record<CommandName | "main", string> = {
  studio: `x-agent studio [--port <n>] [--host <addr>] [--parked <dir>]… [--store <url|path> --scope <name>…]
       [--queue postgres://… --owner <tenant>]

Serves a local web studio on 127.0.0.1 (unless --host says otherwise) and prints its address with a token:
the approval inbox (every parked call whole, a diff for a file write, approve or deny, each decided once), the
runs (this folder's parked runs, the queue's tasks), a decided run live, strategy memory per scope, and costs.
Ctrl-C stops it.

Options:
  --port <n>              the port (default: any free one)
  --host <addr>           where it listens (default: 127.0.0.1)
  --parked <dir>          another folder of park files (a demo's), besides .x-agent/parked
  --store <url|path>      the strategy store to search (postgres://… or a SQLite file)
  --scope <name>          a scope to offer on the strategy page (repeat for more)
  --queue <url>           the task queue's PostgreSQL (default: PG_URL when set)
  --owner <tenant>        whose queued tasks to show (default: default)
  --sandbox <dir>         the workers' sandbox, to show a queued write as a diff
  X_AGENT_STUDIO_TOKEN    the token to use instead of a random one`,
  eval: `x-agent eval auto-mode [--base-url <url>] [--model <id>] [--dataset <name|file>]… [--split dev|heldout|all]
       [--rules <file>] [--record <file> | --replay <file>]

Measures auto mode on your own endpoint: every labelled case of the datasets (all those @x/auto-mode-eval ships,
unless named) goes through auto mode's real classifier ladder on --model, and the figures are printed: the
false-positive and false-negative rates with 95 % intervals, per category, cost and latency per decision, the
calls it could not rule on, and every disagreement. --record keeps every classifier reply; --replay prints the
same figures from such a file with no model call and no key.

Options:
  --provider, --base-url, --api-key, --model, --price   the endpoint, as for x-agent run
  --dataset <name|file>   a shipped dataset (agentdojo, benign-coding) or a dataset file (repeat for more)
  --split <which>         dev, heldout or all (default: all)
  --rules <file>          a JSON list of auto-mode rules, applied before the classifier
  --prompt <file>         a classifier prompt to try instead of the built-in one (named by its digest)
  --concurrency <n>       cases judged at once (default 4)
  --record <file>         write every classifier reply to this file
  --replay <file>         judge the replies recorded in this file instead of calling a model`,
  mcp: `x-agent mcp login <url> [--tokens <file>] [--port <n>]

Signs in to a remote MCP server behind OAuth (discovery, client registration and PKCE by the official
SDK): prints the sign-in address to open in your browser, waits for the redirect on a callback on
127.0.0.1, and stores the tokens in the token file (mode 0600; never printed). A later sign-in is needed
only when the stored refresh token stops working.

Options:
  --tokens <file>         the token file (default: X_AGENT_MCP_TOKENS, else ~/.config/x-agent/mcp-tokens.json)
  --port <n>              the callback's port on 127.0.0.1 (default 53682; 0: any free one)`,
  main: `x-agent — the @x agent core, end to end: tools on a sandbox folder, auto mode, teacher mode,
strategy memory and parked approvals.

Usage:
  x-agent [demo [scenario]]             scripted scenarios, no API key (the default)
  x-agent run "<objective>"             the same wiring on your own models
  x-agent run "<objective>" --mode council --file <path>   a review council on your own models
  x-agent resume <file> [--approve|--deny]  show a parked run's call, or decide it and finish the run
  x-agent worker --store postgres://…   run queued tasks (start as many as you like)
  x-agent enqueue "<objective>" --store postgres://…   queue a task for the workers
  x-agent task <id> --store postgres://… [--approve|--deny]   show a queued task, or decide its approval
  x-agent studio                        a local web page: runs, the approval inbox, strategies, costs
  x-agent eval auto-mode --model <id>   measure auto mode on your endpoint: FPR/FNR, cost, latency
  x-agent mcp login <url>               sign in to a remote MCP server behind OAuth (tokens to a file)
  x-agent scenarios                     list the embedded scenarios
  x-agent help [command]

Common options:
  --json            print the event stream as JSON lines
  -h, --help        help for a command`,
  demo: `x-agent demo [scenario] [options]

Runs the embedded scenarios (all of them, in order, unless one is named) on scripted models:
no network, no key. The scripted replies are functions of what the model is sent, so the runner,
the auto-mode classifier, teacher mode and the strategy store really run.

Options:
  --store <url|path>      strategies in PostgreSQL (postgres://…) or this SQLite file
                          (default: a SQLite file in a temp folder)
  --scope <name>          tenant scope for strategies (default: demo)
  --sandbox <dir>         an existing, empty folder the tools act on (default: a fresh temp folder)
  --create-sandbox        make the --sandbox folder if it does not exist
  --shell-timeout <s>     shell command timeout in seconds (default: 10)
  --park-only             stop after parking the approval; finish it with x-agent resume
  --json                  JSON lines instead of human output

The shell tool is confined with bubblewrap when bwrap is installed and works here (Debian: apt-get
install bubblewrap): the sandbox is then the only folder a command can write. Without it the shell
is NOT confined — a command runs as you, anywhere on this machine, and auto mode's classifier is
the only guard. x-agent says which at start-up.`,
  run: `x-agent run "<objective>" [options]

Runs one task on real models through the real brains: list/read/write files in the sandbox, and
a shell tool gated by auto mode, and delegate, which hands part of the task to a helper sub-run
with the file tools. Writes need an approval: asked at the terminal (y approves, n denies, p parks,
v shows all of the call — its arguments are cut at 160 characters, a write onto an existing file
shows its diff, a helper's call the runs above it; anything else is asked again), else the run
parks to a file.

The answer streams to stdout as the model writes it; progress, the table and errors go to stderr,
so \`x-agent run "…" > answer.txt\` keeps just the answer. Ctrl-C ends the run aborted (exit 130)
with what it cost, or parks the call waiting at the approval prompt; a second Ctrl-C quits at once.

Modes:
  --mode teacher          the task loop on the sandbox's tools, with teacher mode (the default)
  --mode council          a review council instead: three reviewers (security, correctness,
                          tests and performance) on --model review the --file(s) independently,
                          check each other's findings in a critique round, and only findings
                          that hold up are reported (on stdout; the findings table on stderr)
  --file <path>           a file to review, inside the sandbox (repeatable; needs --mode council)
  Without --mode, an objective worded as an open-ended review ("review …", "find all the bugs")
  gets a hint that a council suits it better.

Endpoint (flags, else environment):
  --provider openai|openai-responses|anthropic
                                default: anthropic when only ANTHROPIC_API_KEY is set, else openai;
                                openai-responses: OpenAI through the Responses API
  --base-url <url>              OPENAI_BASE_URL / ANTHROPIC_BASE_URL
  --api-key <key>               OPENAI_API_KEY / ANTHROPIC_API_KEY
  --model <id>                  student model: X_AGENT_MODEL, OPENAI_MODEL / ANTHROPIC_MODEL
  --teacher-model <id>          X_AGENT_TEACHER_MODEL (default: the student's model)
  --classifier-model <id>       X_AGENT_CLASSIFIER_MODEL (default: the core picks; the main model)
  --price <model>=<in>/<out>    $ per million tokens, for the cost column (repeatable)

Options:
  --no-teacher            run the student alone
  --ask / --no-ask        ask for approvals on stdin (default: when stdin and stderr are a
                          terminal) or park them to a file for x-agent resume
  --store <url|path>      postgres://… or a SQLite file (default: .x-agent/strategies.db)
  --scope <name>          tenant scope for strategies (default: default)
  --sandbox <dir>         an existing folder the tools act on (default: .x-agent/sandbox)
  --create-sandbox        make the --sandbox folder if it does not exist
  --shell-timeout <s>     shell command timeout in seconds (default: 10)
  --max-turns <n>         turn limit per run (default: 20; a council's: per reviewer pass, default 6)
  --timeout <s>           each model call's deadline in seconds: a stalled or slow server is cut,
                          then retried
  --mcp "<command>"       also give the agent the tools of this MCP server, started over stdio
                          (repeatable; name the server's exact package and version, or a
                          bin path you installed: e.g. --mcp "npx -y
                          @modelcontextprotocol/server-filesystem@2026.8.31 ." — given a bare
                          bin name, npx runs whatever npm package owns that name)
  --mcp-url <url>         the same for a server over streamable HTTP (repeatable); one behind OAuth signs in
                          with what x-agent mcp login stored
                          MCP tools are named mcp__<tool> (mcp2__, … for more servers) and every
                          call goes to auto mode: the CLI trusts no server's annotations
  --json                  JSON lines instead of human output

The shell tool is confined with bubblewrap when bwrap is installed and works here (Debian: apt-get
install bubblewrap): the sandbox is then the only folder a command can write. Without it the shell
is NOT confined — a command runs as you, anywhere on this machine, and auto mode's classifier is
the only guard. x-agent says which at start-up.`,
  resume: `x-agent resume <file> [--approve|--deny [--reason <text>]]

Without a decision, shows the call a parked run waits for, whole: every argument, a diff for a
write onto an existing file of the sandbox, and for a call inside a sub-run the runs above it.
With --approve or --deny, shows that call again and finishes the run in this process: the decision
is applied, the approved call runs at most once, and the model continues. Run it from the folder the run parked in
(the signing key is .x-agent/park.key there, or X_AGENT_PARK_KEY). A run on a real endpoint reads
its key again from --api-key or the environment.`,
  worker: `x-agent worker --store postgres://… [options]

Runs tasks from the PostgreSQL task queue (@x/queue-postgres, on pg-boss) with the same tools and
gates as x-agent run, until Ctrl-C. Start as many workers as you like, on any machine that reaches
the database: each finished turn is saved, so a worker that dies costs at most the turn in flight,
and an approved call runs at most once (a crash while it runs is shown as unknown_outcome).

Options:
  --scripted              the demo's scripted models (no key, no network) instead of an endpoint
  --concurrency <n>       tasks at once in this process (default: 4)
  --sandbox <dir>         an existing folder the tools act on (default: .x-agent/sandbox)
  --create-sandbox        make the --sandbox folder if it does not exist
  --shell-timeout <s>     shell command timeout in seconds (default: 10)
  endpoint flags as for x-agent run (--provider, --base-url, --api-key, --model, …)
Every worker must share the park key (.x-agent/park.key here, or X_AGENT_PARK_KEY).

The shell tool is confined with bubblewrap when bwrap is installed and works here (Debian: apt-get
install bubblewrap): the sandbox is then the only folder a command can write. Without it the shell
is NOT confined — a command runs as you, anywhere on this machine, and auto mode's classifier is
the only guard. x-agent says which at start-up.`,
  enqueue: `x-agent enqueue "<objective>" --store postgres://… [--owner <tenant>] [--scope <name>] [--wait]

Queues a task for the workers and prints its id. --wait follows it until it ends (or parks) and
prints the answer. A write the task wants waits for x-agent task <id> --approve, for days if need be.
--scope is a strategy scope of the owner's own: its name, or its name, "/" and more (acme/eu).`,
  task: `x-agent task <id> --store postgres://… [--owner <tenant>] [--approve|--deny [--reason <text>]] [--wait]
                [--sandbox <dir>]

Shows a queued task (status, answer, error) and, when it is parked, the whole call it waits for:
every argument, and for a call inside a sub-run the runs above it. With --approve or --deny, shows
that call and decides it; any worker then resumes it. --wait follows the task until it ends or parks.
--sandbox names the workers' sandbox folder, so a write onto an existing file there shows as a diff.`,
  scenarios: `x-agent scenarios — lists the embedded scenarios.`,
  help: `x-agent help [command]`,
};
