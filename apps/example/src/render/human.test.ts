import { describe, expect, it } from "vitest";
import { humanSink, jsonSink } from "./human";

describe("output", () => {
  it("on a terminal, spins while a model works and clears the spinner before the next line", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: true, color: false });
    sink.emit({ type: "model_call", phase: "start", speaker: "student", model: "m" });
    expect(out).toMatch(/student · m thinking… 0\.\ds$/);
    sink.emit({ type: "model_call", phase: "end", speaker: "student", model: "m", tokens: 10 });
    sink.emit({ type: "tool_call", speaker: "student", id: "c", name: "read_file", arguments: { path: "a" } });
    sink.close();
    expect(out.endsWith('\r\x1b[2K   student → read_file {"path":"a"}\n')).toBe(true);
  });

  it("streams the agent's text to its own stream, closes its line before progress, and does not print it twice", () => {
    let progress = "";
    let text = "";
    const sink = humanSink({ write: (t) => (progress += t), text: (t) => (text += t), tty: false, color: false });
    sink.emit({ type: "model_call", phase: "start", speaker: "agent", model: "m" });
    sink.emit({ type: "text_delta", speaker: "agent", delta: "The sandbox " });
    sink.emit({ type: "text_delta", speaker: "agent", delta: "holds\r\na\x1b[2J file." });
    expect(text).toBe("The sandbox holds\na\ufffd[2J file.");
    sink.emit({ type: "model_call", phase: "end", speaker: "agent", model: "m", tokens: 10 });
    sink.emit({ type: "turn", speaker: "agent", model: "m", text: "The sandbox holds a file." });
    const summary = {
      label: "run",
      status: "completed",
      turns: 1,
      tokens: 10,
      tokensEstimated: true,
      costMicroUsd: 0,
      teacherShare: 0,
      strategiesUsed: 0,
      strategiesStored: 0,
    };
    sink.emit({
      type: "result",
      label: "run",
      summary,
      output: "The sandbox holds a file.",
      terminal: { code: "completed", message: "" },
    });
    expect(text).toBe("The sandbox holds\na\ufffd[2J file.\n");
    expect(progress).toBe("   ✔ completed — 1 turns, ~10 tokens (estimated), $0, teacher 0%\n");
  });

  it("says the teacher gave no advice when an escalation brought none", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: false, color: false });
    sink.emit({ type: "escalation", attempt: 1, trigger: "failed", confidence: 0, takeover: false });
    sink.emit({
      type: "escalation",
      attempt: 2,
      trigger: "stuck",
      confidence: 2,
      takeover: false,
      strategy: "list first",
    });
    expect(out).not.toContain("teacher advises, confidence 0");
    expect(out.split("\n")).toEqual([
      "   ⚑ escalation #1 (failed) → the teacher gave no advice (no usable reply); the student's result stands",
      "   ⚑ escalation #2 (stuck) → teacher advises, confidence 2/3",
      "           strategy:   list first",
      "",
    ]);
  });

  it("in a pipe, prints plain lines only", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: false, color: false });
    sink.emit({ type: "model_call", phase: "start", speaker: "classifier", model: "c" });
    sink.emit({ type: "verdict", tool: "shell", verdict: "block", reason: "no", model: "c" });
    sink.emit({ type: "turn", speaker: "helper", model: "m", text: '{"pass": true, "reason": "fine"}' });
    expect(out).toBe("   auto    ✗ BLOCKED shell: no (classifier c)\n   helper  verifier: pass — fine\n");
  });

  it("a verdict line says who ruled: the host rule, or the classifier's model and attempt, and a reuse", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: false, color: false });
    const reason = "nothing outside the work tree is deleted";
    sink.emit({ type: "verdict", tool: "shell", verdict: "block", reason, source: "rule", ruleId: "no-wipe" });
    sink.emit({ type: "verdict", tool: "shell", verdict: "block", reason: "x", model: "c", attempt: 2 });
    sink.emit({
      type: "verdict",
      tool: "shell",
      verdict: "block",
      reason: "x",
      model: "c",
      attempt: 1,
      source: "reused",
    });
    sink.emit({ type: "notice", code: "auto_mode.blocked", audience: "user", message: "said above" });
    expect(out.split("\n")).toEqual([
      `   auto    ✗ BLOCKED shell: ${reason} (host rule no-wipe)`,
      "   auto    ✗ BLOCKED shell: x (classifier c, attempt 2)",
      "   auto    ✗ BLOCKED shell: x (classifier c, attempt 1, reused from the identical call)",
      "",
    ]);
  });

  it("prints no control character that a file, a tool or a model sent", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: false, color: false });
    sink.emit({
      type: "tool_result",
      speaker: "agent",
      id: "c",
      name: "read_file",
      isError: false,
      text: "a\x1b]0;pwned\x07b\x1b[2Jc\u009b31m",
    });
    sink.emit({ type: "error", code: "internal", message: "bad\x1b[31m" });
    sink.emit({ type: "verdict", tool: "sh\x1b[8mell", verdict: "block", reason: "no\x1b[2J" });
    expect(out).toBe(
      "           ✓ read_file: a\ufffd]0;pwned\ufffdb\ufffd[2Jc\ufffd31m\n" +
        "error [internal]: bad\ufffd[31m\n" +
        "   auto    ✗ BLOCKED sh\ufffd[8mell: no\ufffd[2J\n",
    );
  });

  it("--json prints one event per line", () => {
    let out = "";
    const sink = jsonSink((t) => (out += t));
    sink.emit({ type: "note", text: "a" });
    sink.emit({ type: "note", text: "b" });
    expect(
      out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { type: "note", text: "a" },
      { type: "note", text: "b" },
    ]);
  });
});

describe("approval prompt", () => {
  it("ends the prompt line itself when the answer came from a pipe", () => {
    let out = "";
    const sink = humanSink({ write: (t) => (out += t), tty: false, color: false, inputEchoes: false });
    sink.emit({
      type: "approval_request",
      tool: "write_file",
      id: "c",
      arguments: { path: "a" },
      kind: "ask",
      path: [],
    });
    sink.emit({ type: "tool_result", speaker: "agent", id: "c", name: "write_file", isError: false, text: "wrote" });
    expect(out).toBe(
      "   ? write_file needs your approval\n" +
        '     {"path":"a"}\n' +
        "     [y]es / [n]o / [p]ark it for later / [v]iew all of it: \n" +
        "           ✓ write_file: wrote\n",
    );
  });
});
