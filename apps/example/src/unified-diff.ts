/** Lines of context around each change, as `diff -u` shows. */
const CONTEXT = 3;
/** Past this many cells the middle is shown as all removed then all added, rather than aligned line by line. */
const MAX_ALIGN_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

/**
 * What replacing `before` with `after` changes, as a unified diff of `name` (`--- a/name`, `+++ b/name`,
 * `@@` hunks with three lines of context); undefined when they are the same. A last line without a
 * newline is marked as `diff` marks it, so a change of the final newline alone still shows.
 */
export function unifiedDiff(before: string, after: string, name: string): string | undefined {
  if (before === after) return undefined;
  const ops = align(lines(before), lines(after));
  const out = [`--- a/${name}`, `+++ b/${name}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return out.join("\n");
}

/** Each line keeps its newline, so a last line without one differs from the same text with one. */
function lines(text: string): string[] {
  const parts = text.split("\n");
  const last = parts.pop()!;
  const out = parts.map((part) => `${part}\n`);
  if (last !== "") out.push(last);
  return out;
}

/** An edit script: the common head and tail as they are, the middle by its longest common subsequence. */
function align(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (line: string): Op => ({ kind: " ", line });
  return [
    ...a.slice(0, head).map(same),
    ...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map(same),
  ];
}

function middle(a: string[], b: string[]): Op[] {
  const removed = (line: string): Op => ({ kind: "-", line });
  const added = (line: string): Op => ({ kind: "+", line });
  if (a.length * b.length > MAX_ALIGN_CELLS) return [...a.map(removed), ...b.map(added)];
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) ops.push(removed(a[i++]!));
    else ops.push(added(b[j++]!));
  }
  return [...ops, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

/** The changed stretches with their context, neighbours closer than twice the context merged into one hunk. */
function hunks(ops: readonly Op[]): string[][] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const spans: Array<[number, number]> = [];
  for (const index of changed) {
    const start = Math.max(0, index - CONTEXT);
    const end = Math.min(ops.length, index + CONTEXT + 1);
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = end;
    else spans.push([start, end]);
  }
  return spans.map(([start, end]) => {
    const before = ops.slice(0, start);
    const oldStart = before.filter((op) => op.kind !== "+").length;
    const newStart = before.filter((op) => op.kind !== "-").length;
    const body = ops.slice(start, end);
    const oldCount = body.filter((op) => op.kind !== "+").length;
    const newCount = body.filter((op) => op.kind !== "-").length;
    const range = (from: number, count: number) => `${count === 0 ? from : from + 1},${count}`;
    return [
      `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`,
      ...body.map(({ kind, line }) =>
        line.endsWith("\n") ? `${kind}${line.slice(0, -1)}` : `${kind}${line}\n\\ No newline at end of file`,
      ),
    ];
  });
}
