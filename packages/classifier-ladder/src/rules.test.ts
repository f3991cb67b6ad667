import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AutoModeRulesError, createAutoModeRuleBook, type AutoModeRule } from "./rules";

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

const denyRm: AutoModeRule = {
  id: "no-rm-rf",
  effect: "deny",
  tool: "shell",
  args: [{ arg: "command", pattern: "\\brm\\s+-[a-z]*r[a-z]*f" }],
  reason: "recursive forced deletes are forbidden in this repository",
};
const denySecrets: AutoModeRule = {
  id: "no-secrets",
  effect: "deny",
  tool: "*",
  paths: [{ arg: "path", globs: ["/repo/.env", "/repo/secrets/**"], cwd: "/repo" }],
};
const allowReads: AutoModeRule = {
  id: "reads-in-src",
  effect: "allow",
  tool: "read_file",
  paths: [{ arg: "path", globs: ["/repo/src/**"], cwd: "/repo" }],
};

describe("auto-mode rules", () => {
  it("a deny rule names itself and its sentence", () => {
    const book = createAutoModeRuleBook([denyRm]);
    expect(book.judge(call("shell", { command: "cd /tmp && rm -rf build" }))).toEqual({
      effect: "deny",
      ruleId: "no-rm-rf",
      reason: "recursive forced deletes are forbidden in this repository",
    });
    expect(book.judge(call("shell", { command: "rm build.log" }))).toBeUndefined();
    expect(book.judge(call("other", { command: "rm -rf /" }))).toBeUndefined();
  });

  it("a deny rule without a reason says which rule forbids the call", () => {
    const book = createAutoModeRuleBook([denySecrets]);
    expect(book.judge(call("write_file", { path: ".env" }))?.reason).toBe(
      "the host's rule no-secrets forbids this call",
    );
  });

  it("paths are compared after normalisation: dot segments, repeated slashes and cwd", () => {
    const book = createAutoModeRuleBook([denySecrets, allowReads]);
    for (const path of ["src/../.env", "/repo/./secrets//key.pem", "./secrets/a/b", "/repo/src/../../repo/.env"])
      expect(book.judge(call("read_file", { path }))?.effect, path).toBe("deny");
    expect(book.judge(call("read_file", { path: "src/a.ts" }))?.effect).toBe("allow");
    // Leaves src through `..`: not inside the allow glob, so the classifier judges it.
    expect(book.judge(call("read_file", { path: "src/../../etc/passwd" }))).toBeUndefined();
  });

  it("a deny tests any element of an array, an allow needs every element inside", () => {
    const book = createAutoModeRuleBook([
      denySecrets,
      { ...allowReads, tool: "read_files", paths: [{ arg: "paths", globs: ["/repo/src/**"] }] },
    ]);
    expect(book.judge(call("read_files", { paths: ["/repo/src/a", "/repo/.env"] }))).toBeUndefined();
    expect(book.judge(call("x", { path: ["/repo/src/a", "/repo/.env"] }))?.effect).toBe("deny");
    expect(book.judge(call("read_files", { paths: ["/repo/src/a", "/repo/lib/b"] }))).toBeUndefined();
    expect(book.judge(call("read_files", { paths: [] }))).toBeUndefined();
    expect(book.judge(call("read_files", { paths: ["/repo/src/a", "/repo/src/b"] }))?.effect).toBe("allow");
  });

  it("an allow rule never matches an object or a missing argument", () => {
    const book = createAutoModeRuleBook([
      { id: "echo", effect: "allow", tool: "shell", args: [{ arg: "command", pattern: "^echo " }] },
    ]);
    expect(book.judge(call("shell", { command: { toString: "echo hi" } }))).toBeUndefined();
    expect(book.judge(call("shell", {}))).toBeUndefined();
    expect(book.judge(call("shell", { command: "echo hi" }))?.ruleId).toBe("echo");
  });

  it("equals and nested dot paths; tool globs", () => {
    const book = createAutoModeRuleBook([
      { id: "force-push", effect: "deny", tool: "git_*", args: [{ arg: "options.force", equals: true }] },
    ]);
    expect(book.judge(call("git_push", { options: { force: true } }))?.ruleId).toBe("force-push");
    expect(book.judge(call("git_push", { options: { force: false } }))).toBeUndefined();
    expect(book.judge(call("gitpush", { options: { force: true } }))).toBeUndefined();
  });

  it("a bad rule list is refused with a typed error naming the problem", () => {
    const bad: unknown[] = [
      [{ id: "x", effect: "deny", tool: "t", args: [{ arg: "a", pattern: "(" }] }],
      [{ id: "x", effect: "maybe", tool: "t" }],
      [{ id: "x", effect: "deny", tool: "t", args: [{ arg: "a" }] }],
      [{ id: "x", effect: "deny", tool: "t", args: [{ arg: "a", pattern: "a", equals: "a" }] }],
      [denyRm, denyRm],
      [{ ...denyRm, unknown: 1 }],
      "deny everything",
    ];
    for (const rules of bad) {
      expect(() => createAutoModeRuleBook(rules)).toThrow(AutoModeRulesError);
    }
    try {
      createAutoModeRuleBook([denyRm, denyRm]);
    } catch (error) {
      expect((error as AutoModeRulesError).code).toBe("config.auto_mode_rules_invalid");
      expect((error as Error).message).toContain("duplicate rule id no-rm-rf");
    }
  });
});

const segment = fc.stringMatching(/^[a-z]{1,6}$/);
const noise = fc.constantFrom("", ".", "./.", "x/..", "y/z/../..");

describe("auto-mode rules, properties", () => {
  it("any matching deny wins over every allow, in any order", () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom<"deny" | "allow">("deny", "allow"), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (parts, effects, pick) => {
          const path = `/repo/${parts.join("/")}`;
          // Every rule matches the call; at least one is a deny.
          const kinds = [...effects];
          kinds[pick % kinds.length] = "deny";
          const rules = kinds.map((effect, index) => ({
            id: `r${index}`,
            effect,
            tool: index % 2 ? "*" : "write_file",
            paths: [{ arg: "path", globs: ["/repo/**"] }],
          }));
          const match = createAutoModeRuleBook(rules).judge(call("write_file", { path }));
          expect(match?.effect).toBe("deny");
          expect(kinds[Number(match!.ruleId.slice(1))]).toBe("deny");
        },
      ),
    );
  });

  it("inserting dot segments anywhere in a path never changes a deny", () => {
    const book = createAutoModeRuleBook([
      { id: "secrets", effect: "deny", tool: "*", paths: [{ arg: "path", globs: ["/repo/secrets/**"] }] },
    ]);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 4 }),
        fc.array(noise, { minLength: 6, maxLength: 6 }),
        (tail, pads) => {
          const parts = ["repo", "secrets", ...tail];
          const noisy = `/${parts.map((part, index) => `${pads[index % pads.length]}/${part}`).join("/")}`;
          expect(book.judge(call("any", { path: noisy }))?.effect).toBe("deny");
        },
      ),
    );
  });

  it("a rule list survives a JSON round trip with the same rulings", () => {
    const rules = [denyRm, denySecrets, allowReads];
    const again = createAutoModeRuleBook(JSON.parse(JSON.stringify(rules)));
    const book = createAutoModeRuleBook(rules);
    fc.assert(
      fc.property(
        fc.constantFrom("shell", "read_file", "write_file"),
        fc.constantFrom("rm -rf x", "ls", "src/a", ".env", "src/../.env", "../x"),
        (name, value) => {
          const args = { command: value, path: value };
          expect(again.judge(call(name, args))).toEqual(book.judge(call(name, args)));
        },
      ),
    );
  });
});
