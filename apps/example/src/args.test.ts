import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "./args";

function usage(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

describe("parseCommandLine", () => {
  it("defaults to the whole demo", () => {
    expect(parseCommandLine([])).toMatchObject({ name: "demo", json: false, parkOnly: false, shellTimeoutMs: 10_000 });
    expect(parseCommandLine(["--json"])).toMatchObject({ name: "demo", json: true });
  });

  it("reads a demo scenario and its options", () => {
    expect(
      parseCommandLine(["demo", "teacher", "--store", "postgres://u@h/db", "--scope", "acme", "--shell-timeout", "3"]),
    ).toMatchObject({
      name: "demo",
      scenario: "teacher",
      store: "postgres://u@h/db",
      scope: "acme",
      shellTimeoutMs: 3_000,
    });
  });

  it("reads run with its endpoint, prices and --no-teacher", () => {
    const command = parseCommandLine([
      "run",
      "list the files",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--api-key",
      "k",
      "--model",
      "m",
      "--price",
      "m=0.4/1.6",
      "--no-teacher",
      "--max-turns",
      "5",
    ]);
    expect(command).toMatchObject({
      name: "run",
      objective: "list the files",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "k",
      model: "m",
      teacher: false,
      maxTurns: 5,
      prices: { m: { input: 0.4, output: 1.6 } },
    });
  });

  it("reads run --mode council with its files, and refuses what a council cannot use", () => {
    expect(
      parseCommandLine(["run", "review it", "--mode", "council", "--file", "a.js", "--file", "b.js"]),
    ).toMatchObject({
      name: "run",
      mode: "council",
      files: ["a.js", "b.js"],
    });
    expect(parseCommandLine(["run", "do it", "--mode", "teacher"])).toMatchObject({ mode: "teacher", files: [] });
    expect(parseCommandLine(["run", "do it"])).not.toHaveProperty("mode");
    expect(usage(["run", "x", "--mode", "debate"])).toBe('--mode must be "teacher" or "council", got "debate"');
    expect(usage(["run", "x", "--mode", "council"])).toMatch(
      /^--mode council needs the files to review: --file <path>/,
    );
    expect(usage(["run", "x", "--file", "a.js"])).toBe("--file is for --mode council (the files a council reviews)");
    expect(usage(["run", "x", "--mode", "teacher", "--file", "a.js"])).toMatch(/^--file is for --mode council/);
    expect(usage(["run", "x", "--mode", "council", "--file", " "])).toBe("--file needs a path");
    const base = ["run", "x", "--mode", "council", "--file", "a.js"];
    expect(usage([...base, "--no-teacher"])).toBe("--no-teacher does nothing with --mode council");
    expect(usage([...base, "--mcp", "npx server"])).toBe("--mcp does nothing with --mode council");
    expect(usage([...base, "--store", "s.db"])).toBe("--store does nothing with --mode council");
    expect(usage([...base, "--teacher-model", "big"])).toBe("--teacher-model does nothing with --mode council");
  });

  it("reads resume with one decision, or none (the pending call is only shown)", () => {
    expect(parseCommandLine(["resume", "p.json", "--approve"])).toMatchObject({
      name: "resume",
      file: "p.json",
      decision: "approve",
    });
    expect(parseCommandLine(["resume", "p.json", "--deny", "--reason", "no"])).toMatchObject({
      decision: "deny",
      reason: "no",
    });
    expect(parseCommandLine(["resume", "p.json"])).toEqual({ name: "resume", file: "p.json", json: false, prices: {} });
    expect(usage(["resume", "p.json", "--approve", "--deny"])).toContain(
      "one of --approve, --deny, --answer or --decline, not approve and deny",
    );
    expect(usage(["resume", "p.json", "--reason", "no"])).toContain(
      "--reason goes with --approve, --deny or --decline",
    );
    expect(parseCommandLine(["resume", "p.json", "--answer", '{"seat":"12A","bags":2}'])).toMatchObject({
      decision: "answer",
      answer: { seat: "12A", bags: 2 },
    });
    expect(parseCommandLine(["resume", "p.json", "--decline"])).toMatchObject({ decision: "decline" });
    expect(usage(["resume", "p.json", "--answer", "12A"])).toContain(
      "--answer takes the form's fields as a JSON object",
    );
    expect(usage(["resume", "p.json", "--answer", "[1]"])).toContain("--answer takes a JSON object");
    expect(usage(["resume", "p.json", "--answer", "{}", "--decline"])).toContain("not answer and decline");
    expect(usage(["resume", "--approve"])).toContain("needs the parked file");
  });

  it("refuses bad flags with a message naming them", () => {
    expect(usage(["--bogus"])).toContain("--bogus");
    expect(usage(["demo", "--approve"])).toContain("--approve");
    expect(usage(["frobnicate"])).toContain('unknown command "frobnicate"');
    expect(usage(["run"])).toContain("needs an objective");
    expect(usage(["run", "x", "--max-turns", "0"])).toContain("--max-turns must be a positive whole number");
    expect(usage(["run", "x", "--provider", "gemini"])).toContain(
      '--provider must be "openai", "openai-responses" or "anthropic"',
    );
    expect(usage(["run", "x", "--base-url", "localhost:8080"])).toContain("--base-url must be an http(s) URL");
    expect(usage(["run", "x", "--price", "m=cheap"])).toContain("--price takes MODEL=INPUT/OUTPUT");
    expect(usage(["run", "x", "--model"])).toContain("--model");
    expect(usage(["demo", "a", "b"])).toContain('unexpected argument "b"');
    expect(usage(["run", "x", "--sandbox", " "])).toContain("--sandbox needs a folder path");
    expect(usage(["demo", "--shell-timeout", "3000000"])).toContain("--shell-timeout is at most 3600 seconds");
    expect(usage(["demo", "--shell-timeout", "1.5"])).toContain("--shell-timeout must be a positive whole number");
  });

  it("turns --help on any command into help for it", () => {
    expect(parseCommandLine(["run", "--help"])).toEqual({ name: "help", topic: "run", json: false });
    expect(parseCommandLine(["-h"])).toEqual({ name: "help", topic: undefined, json: false });
    expect(parseCommandLine(["help", "resume"])).toEqual({ name: "help", topic: "resume", json: false });
  });
});
