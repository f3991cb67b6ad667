import type { Context } from "@x/llm-types";
import type { Finding } from "@x/council";
import type { Policy, ScriptedReply } from "./policies";

/**
 * The review scenario's three scripted reviewers. Like the other scripted models, each is a pure
 * function of what it is sent: it reads the numbered files in the council's request and answers
 * with what its rules see in the code. Each lens has its blind spot — the correctness reviewer
 * flags `Number(req.query.page …)` as NaN-prone without reading the `?? 1` beside it — and as a
 * critic every reviewer checks a claim against the cited line, which is where that mistake shows.
 */

interface NumberedLine {
  file: string;
  line: number;
  code: string;
}

function requestText(context: Context): string {
  return context.messages
    .flatMap((m) =>
      m.role !== "user"
        ? []
        : [
            typeof m.content === "string"
              ? m.content
              : m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
          ],
    )
    .join("\n");
}

/** The `<file path="…">` blocks of a council request, line by line, as the council numbered them. */
function numberedLines(text: string): NumberedLine[] {
  const out: NumberedLine[] = [];
  for (const block of text.matchAll(/<file path="([^"]+)">\n([\s\S]*?)\n<\/file>/g)) {
    for (const row of block[2]!.split("\n")) {
      const numbered = /^\s*(\d+) {2}(.*)$/.exec(row);
      if (numbered) out.push({ file: block[1]!, line: Number(numbered[1]), code: numbered[2]! });
    }
  }
  return out;
}

type Rule = (line: NumberedLine, all: readonly NumberedLine[]) => Omit<Finding, "location"> | undefined;

/** A path built from a request field: `join(ROOT, req.params.x)` resolves `../` segments out of ROOT. */
const pathTraversal: Rule = ({ code }) => {
  const built = /\bjoin\((\w+),\s*(req\.(?:params|query|body)\.\w+)\)/.exec(code);
  if (!built) return undefined;
  return {
    claim:
      `path traversal: ${built[2]} can hold ../ segments, ` +
      `so join() resolves outside ${built[1]} and any readable file is sent`,
    evidence: code.trim(),
    severity: "critical",
    confidence: 0.9,
  };
};

/** `start = page * SIZE` where page counts from 1 (`?? 1`): page 1 skips a whole page. */
function onePageOff(line: NumberedLine, all: readonly NumberedLine[]): RegExpExecArray | undefined {
  const offset = /\b(\w+)\s*=\s*(\w+)\s*\*\s*(\w+)/.exec(line.code);
  if (!offset) return undefined;
  const firstPage = all.some(
    (l) => l.file === line.file && new RegExp(`\\b${offset[2]}\\b.*\\?\\?\\s*1\\b`).test(l.code),
  );
  return firstPage ? offset : undefined;
}

const pageOffsetBug: Rule = (line, all) => {
  const offset = onePageOff(line, all);
  if (!offset) return undefined;
  return {
    claim:
      `${offset[1]} is off by one page: page 1 gives ${offset[1]} = ${offset[3]}, ` +
      `so the first ${offset[3]} entries are never listed; it should be (${offset[2]} - 1) * ${offset[3]}`,
    evidence: line.code.trim(),
    severity: "high",
    confidence: 0.85,
  };
};

/** The correctness lens's blind spot: it sees `Number(req.query.x` and stops reading. */
const nanFromQuery: Rule = ({ code }) => {
  const parsed = /\bNumber\(req\.query\.(\w+)/.exec(code);
  if (!parsed) return undefined;
  return {
    claim:
      `${parsed[1]} is NaN when the request has no ?${parsed[1]}=: ` +
      "Number(undefined) is NaN, and the listing comes back empty",
    evidence: code.trim(),
    severity: "medium",
    confidence: 0.65,
  };
};

const untestedFirstPage: Rule = (line, all) => {
  const offset = onePageOff(line, all);
  if (!offset) return undefined;
  return {
    claim:
      `a test of page 1 would fail: ${offset[2]}=1 lists the second page, ` +
      `since ${offset[1]} = ${offset[2]} * ${offset[3]}`,
    evidence: line.code.trim(),
    severity: "medium",
    confidence: 0.7,
  };
};

function review(rules: readonly Rule[], text: string): ScriptedReply {
  const lines = numberedLines(text);
  const findings: Finding[] = [];
  for (const line of lines) {
    for (const rule of rules) {
      const found = rule(line, lines);
      if (found) findings.push({ location: { file: line.file, line: line.line }, ...found });
    }
  }
  return { text: JSON.stringify({ findings }) };
}

/** `F2. src/uploads.js:16 — claim` lines of a critique request. */
function shownFindings(text: string): Array<{ id: string; file: string; line: number; claim: string }> {
  return [...text.matchAll(/^(F\d+)\. (\S+):(\d+) — (.+)$/gm)].map((m) => ({
    id: m[1]!,
    file: m[2]!,
    line: Number(m[3]),
    claim: m[4]!,
  }));
}

/**
 * A critic checks each finding it is shown against the line it cites: a claim of a missing value
 * on a line that defaults it (`?? …`) is disputed; a finding its own rules reproduce on that line is
 * confirmed; anything else it cannot judge, so it says nothing about it.
 */
function critique(text: string): ScriptedReply {
  const lines = numberedLines(text);
  const verdicts = shownFindings(text).flatMap(({ id, file, line, claim }) => {
    const cited = lines.find((l) => l.file === file && l.line === line);
    if (!cited) return [];
    const fallback = /(\w+(?:\.\w+)*)\s*\?\?\s*([^)\s]+)/.exec(cited.code);
    if (fallback && /\b(NaN|undefined|missing|no \?)/.test(claim))
      return [
        {
          id,
          verdict: "dispute",
          reason:
            `\`${fallback[1]} ?? ${fallback[2]}\` is ${fallback[2]} when the value is missing, ` +
            "so it is never Number(undefined)",
        },
      ];
    if (pathTraversal(cited, lines))
      return [{ id, verdict: "confirm", reason: "reproduced: a name of ../../etc/passwd leaves the folder" }];
    if (onePageOff(cited, lines))
      return [{ id, verdict: "confirm", reason: "reproduced: page=1 starts at the 21st entry" }];
    return [];
  });
  return { text: JSON.stringify({ verdicts }) };
}

function reviewer(rules: readonly Rule[]): Policy {
  return (context) => {
    const text = requestText(context);
    return text.includes('"verdicts"') ? critique(text) : review(rules, text);
  };
}

/** The three lenses, by the catalog key of the model each runs on. */
export const REVIEWER_POLICIES = {
  security: reviewer([pathTraversal]),
  correctness: reviewer([pageOffsetBug, nanFromQuery]),
  tests: reviewer([untestedFirstPage]),
} as const satisfies Record<string, Policy>;
