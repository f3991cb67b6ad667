import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parkKey, readParkFile, stateDir, writeParkFile } from "./park-file";

let cwd: string;
let umask: number;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "x-agent-park-"));
  // The most permissive umask: the 0600 must come from the code, not from the machine's default.
  umask = process.umask(0);
});

afterEach(async () => {
  process.umask(umask);
  await rm(cwd, { recursive: true, force: true });
});

describe("park key and park files", () => {
  it("creates .x-agent/park.key readable and writable by its owner only, and reuses it", async () => {
    const key = await parkKey(cwd, {});
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const file = join(stateDir(cwd), "park.key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(key);
    expect(await parkKey(cwd, {})).toBe(key);
  });

  it("tightens an existing key file that others can read", async () => {
    const file = join(stateDir(cwd), "park.key");
    await mkdir(stateDir(cwd), { recursive: true });
    await writeFile(file, "handmade-key\n", { mode: 0o644 });
    expect(await parkKey(cwd, {})).toBe("handmade-key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("prefers X_AGENT_PARK_KEY and then writes no key file", async () => {
    expect(await parkKey(cwd, { X_AGENT_PARK_KEY: "  from-env  " })).toBe("from-env");
    await expect(stat(join(stateDir(cwd), "park.key"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("writes a park file readable by its owner only", async () => {
    const path = await writeParkFile(
      join(cwd, "parked", "run.json"),
      {
        kind: "x-agent.parked",
        version: 1,
        createdAt: new Date(0).toISOString(),
        label: "t",
        sandbox: cwd,
        shellTimeoutMs: 1000,
        run: { mode: "demo", scope: "demo" },
        parked: {},
      },
      "key",
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("refuses a park file whose sandbox, endpoint or run was edited, or that another key signed", async () => {
    const path = join(cwd, "run.json");
    const file = {
      kind: "x-agent.parked" as const,
      version: 1 as const,
      createdAt: new Date(0).toISOString(),
      label: "t",
      sandbox: join(cwd, "box"),
      shellTimeoutMs: 1000,
      run: {
        mode: "endpoint" as const,
        endpoint: {
          provider: "openai" as const,
          baseUrl: "https://api.openai.com/v1",
          model: "m",
          teacherModel: "m",
          prices: {},
        },
      },
      parked: { id: "p" },
    };
    await writeParkFile(path, file, "key");
    expect(await readParkFile(path, "key")).toEqual(file);
    await expect(readParkFile(path, "other-key")).rejects.toMatchObject({ code: "park_file_invalid" });
    const edits: Array<(json: typeof file) => void> = [
      (json) => (json.sandbox = "/"),
      (json) => (json.run.endpoint.baseUrl = "https://attacker.example/v1"),
      (json) => (json.shellTimeoutMs = 999_999),
      (json) => (json.parked = { id: "q" }),
    ];
    for (const edit of edits) {
      const json = JSON.parse(await readFile(path, "utf8")) as typeof file;
      edit(json);
      const edited = join(cwd, "edited.json");
      await writeFile(edited, JSON.stringify(json));
      await expect(readParkFile(edited, "key")).rejects.toMatchObject({ code: "park_file_invalid" });
    }
  });
});
