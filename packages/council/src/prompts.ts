import type { CouncilTask } from "./types";

/** The built-in reviewer instructions. */
export const REVIEWER_SYSTEM_PROMPT = `\
You are one reviewer on a review council. Other reviewers look at the same work independently; \
later you will check each other's findings.
Report only problems you can point to: a file and line, what is wrong, and the evidence \
(the code, an input that breaks it). Do not pad the list: a wrong finding costs more than a missed one \
you were unsure of. Give each finding your honest confidence from 0 to 1.`;

/** The work, with line numbers so every reviewer cites the same places. */
export function renderFiles(task: CouncilTask): string {
  return (task.files ?? [])
    .map((file) => {
      const lines = file.content.split("\n").map((line, i) => `${String(i + 1).padStart(4)}  ${line}`);
      return `<file path="${file.path}">\n${lines.join("\n")}\n</file>`;
    })
    .join("\n\n");
}

export function reviewObjective(task: CouncilTask, lens: string | undefined): string {
  const focus = lens
    ? `\n\nYour lens: ${lens}. Look hardest for problems of that kind, and report any other real problem you see.`
    : "";
  return (
    `${task.objective}${focus}\n\n${renderFiles(task)}\n\n` +
    'Answer with your findings as JSON: {"findings": [{"location": {"file", "line"}, "claim", "evidence", ' +
    '"severity": "critical" | "high" | "medium" | "low", "confidence"}]}. An empty list is a fine answer.'
  );
}

export interface ShownFinding {
  id: string;
  file: string;
  line: number;
  claim: string;
  evidence: string;
  /** Earlier critics' reasons, in a rebuttal round. */
  said?: string[];
}

function renderShown(findings: readonly ShownFinding[]): string {
  return findings
    .map((f) => {
      const said = f.said?.length ? `\n   said so far: ${f.said.join(" | ")}` : "";
      return `${f.id}. ${f.file}:${f.line} — ${f.claim}\n   evidence: ${f.evidence}${said}`;
    })
    .join("\n");
}

export function critiqueObjective(task: CouncilTask, findings: readonly ShownFinding[], rebuttal: boolean): string {
  const ask = rebuttal
    ? "These findings are contested: some reviewers back them, some dispute them. " +
      "Read what was said, check the code again, and give your final stance on each."
    : [
        "Other reviewers reported these findings. For each: can you confirm",
        "it from the code (confirm), is it wrong (dispute), or does it",
        "repeat another finding in this list (duplicate, with duplicateOf)?",
      ].join(" ");
  return (
    `${task.objective}\n\n${renderFiles(task)}\n\n${ask}\n\n${renderShown(findings)}\n\n` +
    'Answer as JSON: {"verdicts": [{"id", "verdict": "confirm" | "dispute" | "duplicate", ' +
    '"duplicateOf"?, "reason"}]}, one entry per finding.'
  );
}
