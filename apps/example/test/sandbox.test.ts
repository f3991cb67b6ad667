import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIMockServer, type OpenAIMockServer } from "@x/brain-openai/testing";
import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellConfinement } from "../src/sandbox/confinement";
import { cleanEnv, ofType, parseEvents, removeTempDirs, runCli, tempDir } from "./cli-helpers";

// Spawns the CLI (tsx compiles the sources on start): minutes on a busy machine, not seconds.
afterAll(removeTempDirs);

interface WireMessage {
  role: string;
  content?: unknown;
}

/** A model that runs `touch ../escaped` through the shell, a classifier that lets it, then an answer. */
let server: OpenAIMockServer;
beforeAll(async () => {
  server = await startOpenAIMockServer((request) => {
    const messages = (request.body as { messages?: WireMessage[] }).messages ?? [];
    const system = messages.find((m) => m.role === "system")?.content;
    if (system === CLASSIFIER_SYSTEM_PROMPT) return { text: "<block>no</block>" };
    if (!messages.some((m) => m.role === "tool"))
      return { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "touch ../escaped" } }] };
    return { text: "Done." };
  });
});
afterAll(() => server.close());

const endpoint = () => ["--base-url", server.baseUrl, "--api-key", "k", "--model", "m", "--no-teacher"];
/**
 * A PATH where no bwrap is found: the machine of a user who never installed bubblewrap (the CLI
 * starts node by its path).
 */
const withoutBwrap = (cwd: string) => cleanEnv({ PATH: join(cwd, "no-bin") });

describe("x-agent's sandbox folder (child process)", { timeout: 180_000 }, () => {
  it("refuses a --sandbox that does not exist, and makes nothing; --create-sandbox makes it", async () => {
    const cwd = await tempDir("x-agent-test-sandbox-missing-");
    const typo = join(cwd, "typo");
    const asked = server.requests.length;
    const refused = await runCli(["run", "What is here?", "--sandbox", typo, ...endpoint()], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error [sandbox_missing]: no such sandbox folder: ${typo}`);
    expect(refused.stderr).toContain("--create-sandbox");
    expect(existsSync(typo)).toBe(false);
    expect(server.requests).toHaveLength(asked);

    const made = await runCli(
      ["run", "What is here?", "--sandbox", typo, "--create-sandbox", ...endpoint(), "--json"],
      {
        cwd,
      },
    );
    expect(made.code).toBe(0);
    expect(existsSync(typo)).toBe(true);
  });

  it("refuses a file named as the sandbox with a typed error, not a raw EEXIST", async () => {
    const cwd = await tempDir("x-agent-test-sandbox-file-");
    await writeFile(join(cwd, "hostname"), "box\n");
    for (const args of [
      ["--sandbox", join(cwd, "hostname")],
      ["--sandbox", join(cwd, "hostname", "box"), "--create-sandbox"],
    ]) {
      const run = await runCli(["run", "What is here?", ...args, ...endpoint(), "--json"], { cwd });
      expect(run.code).toBe(2);
      expect(run.stdout).not.toContain("EEXIST");
      expect(ofType(parseEvents(run.stdout), "error")).toEqual([
        { type: "error", code: "sandbox_not_a_folder", message: expect.stringMatching(/must be a folder/) as string },
      ]);
    }
  });
});

describe("x-agent's shell tool and the sandbox (child process)", { timeout: 180_000 }, () => {
  it.runIf(shellConfinement(tmpdir()).kind === "bwrap")(
    "with bubblewrap the shell is confined: touch ../escaped fails and writes nothing outside; start-up says so",
    async () => {
      const cwd = await tempDir("x-agent-test-confined-");
      const sandbox = join(cwd, "box");
      await mkdir(sandbox);
      const run = await runCli(["run", "Touch a file", "--sandbox", sandbox, ...endpoint(), "--json"], { cwd });
      expect([run.code, run.stderr]).toEqual([0, ""]);
      const events = parseEvents(run.stdout);
      expect(ofType(events, "note").map((n) => n.text)).toContainEqual(
        expect.stringMatching(
          /^the shell is confined by bubblewrap .*: the sandbox is the only folder a command can write/,
        ),
      );
      expect(ofType(events, "tool_result")[0]).toMatchObject({ name: "shell", isError: true });
      expect(ofType(events, "tool_result")[0]!.text).toMatch(/Read-only file system/);
      expect(existsSync(join(cwd, "escaped"))).toBe(false);
    },
  );

  it("without bubblewrap, --help and start-up say plainly that the shell is not confined", async () => {
    const cwd = await tempDir("x-agent-test-unconfined-");
    const help = await runCli(["help", "run"], { cwd, env: withoutBwrap(cwd) });
    const said = help.stdout.replace(/\s+/g, " ");
    expect(said).toContain("Without it the shell is NOT confined");
    expect(said).toContain(
      "On this machine, the shell is NOT confined — bubblewrap (bwrap) is not installed: a command runs as you, " +
        "anywhere on this machine, and auto mode's classifier is the only guard",
    );
    const run = await runCli(["run", "What is here?", ...endpoint(), "--json"], { cwd, env: withoutBwrap(cwd) });
    const notes = ofType(parseEvents(run.stdout), "note").map((n) => n.text);
    expect(notes).toContainEqual(
      expect.stringMatching(/^the shell is NOT confined — bubblewrap \(bwrap\) is not installed/),
    );
  });
});
