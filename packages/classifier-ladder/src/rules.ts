import { CodedError, issuesLine } from "@x/llm-types";
import { z } from "zod/v4";
import { globRegExp, normalisePath } from "./rule-paths";

const REGEX_FLAGS = /^[imsu]*$/;

function compiles(source: string, flags = ""): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * A pattern on one validated argument, by its dot path (`command`, `options.cwd`, `files.0`): a
 * regular expression searched in the value (`pattern`, with `flags` from `imsu`), or an exact value.
 */
export const AutoModeArgConditionSchema = z
  .strictObject({
    /** Dot path into the call's validated arguments. */
    arg: z.string().min(1),
    /** Regular expression source, searched (not anchored unless it says `^…$`). */
    pattern: z.string().min(1).optional(),
    flags: z.string().regex(REGEX_FLAGS).optional(),
    /** The argument equals this value exactly. */
    equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
  })
  .refine((c) => (c.pattern === undefined) !== (c.equals === undefined), "give exactly one of pattern, equals")
  .refine((c) => c.pattern === undefined || compiles(c.pattern, c.flags), "pattern is not a valid regular expression");

/**
 * A path argument inside (or outside) a glob, compared after normalisation: `.`, `..` and repeated
 * slashes are resolved first, relative paths against `cwd` when it is given, so `src/../.env`
 * matches `.env` and `/repo/./a//b` matches `/repo/a/b`. `**` spans directories, `*` and `?` do not.
 */
export const AutoModePathConditionSchema = z.strictObject({
  /** Dot path of the argument holding a path (or an array of paths). */
  arg: z.string().min(1),
  /** Globs; the condition holds when the path is inside any of them. */
  globs: z.array(z.string().min(1)).min(1),
  /** Absolute directory relative paths are resolved against. */
  cwd: z.string().startsWith("/").optional(),
});

/** One host rule: data, so it can be stored, shown, and carried in parks and sub-runs. */
export const AutoModeRuleSchema = z.strictObject({
  /** Stable id, named on every verdict the rule decides. */
  id: z.string().regex(/^[A-Za-z0-9_.:/-]{1,80}$/),
  /** `deny` blocks without asking the classifier, and nothing overrides it; `allow` skips the classifier. */
  effect: z.enum(["deny", "allow"]),
  /** A tool name, or a glob over names (`mcp__fs__*`, `*`). */
  tool: z.string().min(1),
  /** Every one must hold. */
  args: z.array(AutoModeArgConditionSchema).optional(),
  /** Every one must hold. */
  paths: z.array(AutoModePathConditionSchema).optional(),
  /** One sentence the model (and the user) is shown when the rule blocks a call. */
  reason: z.string().min(1).max(300).optional(),
});
export type AutoModeRule = z.infer<typeof AutoModeRuleSchema>;

/** A rule list: ids are unique, so a verdict's rule id names one rule. */
export const AutoModeRulesSchema = z.array(AutoModeRuleSchema).superRefine((rules, ctx) => {
  const seen = new Set<string>();
  for (const [index, rule] of rules.entries()) {
    if (seen.has(rule.id))
      ctx.addIssue({ code: "custom", path: [index, "id"], message: `duplicate rule id ${rule.id}` });
    seen.add(rule.id);
  }
});

/** A rule list that does not parse: thrown where the host hands it in, before any call is judged. */
export class AutoModeRulesError extends CodedError<"config.auto_mode_rules_invalid"> {
  override readonly name = "AutoModeRulesError";
  constructor(message: string) {
    super("config.auto_mode_rules_invalid", message);
  }
}

/** What the rules say about one call: a deny or an allow, with the rule that decided. */
export interface AutoModeRuleMatch {
  effect: "deny" | "allow";
  ruleId: string;
  /** The sentence shown for a deny: the rule's own reason, or one naming the rule. */
  reason: string;
}

/** A call as rules see it: the tool's name and its validated arguments. */
export interface RuledCall {
  name: string;
  arguments: Readonly<Record<string, unknown>>;
}

function valueAt(args: Readonly<Record<string, unknown>>, path: string): unknown {
  let at: unknown = args;
  for (const key of path.split(".")) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * The values a condition tests. A deny tests every element of an array (any may match) and an
 * object by its JSON; an allow only scalars, every element of an array, and never an empty list —
 * each reading errs toward the classifier judging the call.
 */
function scalars(value: unknown, effect: "deny" | "allow"): string[] | undefined {
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  if (items.length === 0) return undefined;
  const out: string[] = [];
  for (const item of items) {
    if (typeof item === "string") out.push(item);
    else if (typeof item === "number" || typeof item === "boolean") out.push(String(item));
    else if (effect === "deny" && item !== undefined) out.push(JSON.stringify(item));
    else if (effect === "allow") return undefined;
  }
  return out;
}

type Test = (value: string) => boolean;

function holds(values: string[] | undefined, test: Test, effect: "deny" | "allow"): boolean {
  if (!values || values.length === 0) return false;
  return effect === "deny" ? values.some(test) : values.every(test);
}

interface CompiledRule {
  rule: AutoModeRule;
  tool: RegExp;
  matches(call: RuledCall): boolean;
}

function compileRule(rule: AutoModeRule): CompiledRule {
  const args = (rule.args ?? []).map((c) => {
    const regex = c.pattern !== undefined ? new RegExp(c.pattern, c.flags) : undefined;
    const test: Test = regex ? (v) => regex.test(v) : (v) => v === String(c.equals);
    return { arg: c.arg, test };
  });
  const paths = (rule.paths ?? []).map((c) => {
    const globs = c.globs.map((glob) => globRegExp(normalisePath(glob, c.cwd)));
    const test: Test = (v) => {
      const path = normalisePath(v, c.cwd);
      return globs.some((glob) => glob.test(path));
    };
    return { arg: c.arg, test };
  });
  const conditions = [...args, ...paths];
  return {
    rule,
    tool: globRegExp(rule.tool, { names: true }),
    matches(call) {
      if (!this.tool.test(call.name)) return false;
      return conditions.every((c) => holds(scalars(valueAt(call.arguments, c.arg), rule.effect), c.test, rule.effect));
    },
  };
}

/** Host rules, parsed once: {@link AutoModeRuleBook.judge} answers for one call. */
export interface AutoModeRuleBook {
  readonly rules: readonly AutoModeRule[];
  /** Any matching deny wins over every allow, whatever the order; then the first matching allow. */
  judge(call: RuledCall): AutoModeRuleMatch | undefined;
}

/** Parses a host's rule list (zod) and compiles it; a bad list throws {@link AutoModeRulesError}. */
export function createAutoModeRuleBook(rules: unknown): AutoModeRuleBook {
  const parsed = AutoModeRulesSchema.safeParse(rules ?? []);
  if (!parsed.success) throw new AutoModeRulesError(`auto-mode rules are invalid: ${issuesLine(parsed.error)}`);
  const compiled = parsed.data.map(compileRule);
  return {
    rules: parsed.data,
    judge(call) {
      const deny = compiled.find((c) => c.rule.effect === "deny" && c.matches(call));
      if (deny) return { effect: "deny", ruleId: deny.rule.id, reason: deny.rule.reason ?? denySentence(deny.rule) };
      const allow = compiled.find((c) => c.rule.effect === "allow" && c.matches(call));
      if (allow)
        return { effect: "allow", ruleId: allow.rule.id, reason: allow.rule.reason ?? `rule ${allow.rule.id}` };
      return undefined;
    },
  };
}

function denySentence(rule: AutoModeRule): string {
  return `the host's rule ${rule.id} forbids this call`;
}
