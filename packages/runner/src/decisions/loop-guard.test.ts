import { describe, expect, it } from "vitest";
import { createLoopGuard } from "./loop-guard";

describe("createLoopGuard", () => {
  it("warns at the Nth identical call in a row and is stuck at the next", () => {
    const guard = createLoopGuard(3);
    const c = { name: "ls", arguments: { path: "/", all: true } };
    expect([
      guard.observe(c),
      guard.observe(c),
      guard.observe({ name: "ls", arguments: { all: true, path: "/" } }),
    ]).toEqual(["ok", "ok", "warn"]);
    expect(guard.observe(c)).toBe("stuck");
  });

  it("a different call (or different arguments) resets the streak", () => {
    const guard = createLoopGuard(2);
    guard.observe({ name: "ls", arguments: { path: "/" } });
    expect(guard.observe({ name: "ls", arguments: { path: "/tmp" } })).toBe("ok");
    expect(guard.observe({ name: "ls", arguments: { path: "/tmp" } })).toBe("warn");
  });

  it("resumes counting from a stored state", () => {
    const first = createLoopGuard(2);
    first.observe({ name: "a", arguments: {} });
    const second = createLoopGuard(2, JSON.parse(JSON.stringify(first.state())));
    expect(second.observe({ name: "a", arguments: {} })).toBe("warn");
  });
});
