import { join } from "node:path";
import { routeTask, type CouncilTask } from "@x/council";
import { UsageError, type Command } from "../args";
import { REVIEW_LENSES, reviewWithCouncil } from "../council-review";
import { missingPrice, resolveEndpoint } from "../endpoint";
import { ABORTED_EXIT, type CliIo } from "../io";
import { stateDir } from "../park-file";
import { createRuntime } from "../runtime";
import { displayPath, resolveInside, SandboxError } from "../sandbox/paths";
import { readTextFile } from "../sandbox/files";
import { openSandbox } from "../sandbox/sandbox";
import { redactUrl } from "../store";
import { councilSummary } from "../summary";

/** The `--file`s, read from the sandbox: a path outside it or a missing file is a bad command line. */
async function filesToReview(sandbox: string, paths: readonly string[]): Promise<CouncilTask["files"]> {
  const files: Array<{ path: string; content: string }> = [];
  for (const path of paths) {
    try {
      const shown = displayPath(sandbox, await resolveInside(sandbox, path));
      files.push({ path: shown, content: await readTextFile(sandbox, shown) });
    } catch (error) {
      if (error instanceof SandboxError) throw new UsageError(`--file ${path}: ${error.message}`);
      throw error;
    }
  }
  return files;
}

/**
 * `x-agent run "<objective>" --mode council --file …`: the CLI's three lenses review the files on
 * the endpoint's model, check each other's findings, and the ones that hold up are the answer.
 */
export async function reviewCommand(command: Extract<Command, { name: "run" }>, io: CliIo): Promise<number> {
  const { config, apiKey } = resolveEndpoint(command, io.env);
  const sandbox = await openSandbox(command.sandbox ?? join(stateDir(io.cwd), "sandbox"), {
    create: command.sandbox === undefined || command.createSandbox,
  });
  const task: CouncilTask = { objective: command.objective, files: await filesToReview(sandbox, command.files) };
  const runtime = await createRuntime(
    { mode: "endpoint", endpoint: config, ...(apiKey !== undefined ? { apiKey } : {}) },
    { emit: io.emit, teacherMode: false, cwd: io.cwd, env: io.env },
  );

  const where = `${config.provider} at ${redactUrl(config.baseUrl)}`;
  io.emit({ type: "banner", text: `x-agent run --mode council — ${where}` });
  const route = routeTask({ objective: command.objective });
  io.emit({
    type: "route",
    mode: "council",
    reason:
      route.mode === "council"
        ? `${route.reason} (and --mode council)`
        : `--mode council on the command line (left to itself, routeTask would pick teacher mode: ${route.reason})`,
  });
  io.emit({
    type: "note",
    text: [
      `reviewers ${REVIEW_LENSES.map((r) => r.name).join(", ")} on ${config.model}`,
      `files ${(task.files ?? []).map((f) => f.path).join(", ")}`,
    ].join(" · "),
  });
  const unpriced = missingPrice(config);
  if (unpriced) io.emit({ type: "note", text: unpriced });

  const stop = new AbortController();
  const unlisten = io.onInterrupt?.(() => {
    io.emit({ type: "note", text: "Ctrl-C: stopping the review (Ctrl-C again quits at once)" });
    stop.abort();
  });
  try {
    const reviewers = REVIEW_LENSES.map((r) => ({
      ...r,
      model: runtime.roleModels.student,
      ...(command.maxTurns !== undefined ? { maxTurns: command.maxTurns } : {}),
    }));
    const result = await reviewWithCouncil(runtime.runner, "review", task, { reviewers, signal: stop.signal }, io.emit);
    io.emit({ type: "summary", rows: [councilSummary("review", result)] });
    if (result.status === "aborted") return ABORTED_EXIT;
    return result.status === "completed" ? 0 : 1;
  } finally {
    unlisten?.();
  }
}
