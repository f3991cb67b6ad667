/**
 * The TypeScript in a README, as one program a consumer could paste: every ```ts block, its imports
 * hoisted and merged, its body in a scope of its own — except a block fenced ```ts continued, which
 * goes on in the scope of the block before it (a tour whose steps build on each other). A block
 * fenced ```ts fragment shows a shape, not a program, and is left out.
 */
export interface Snippets {
  /** The program, or undefined when the README has no compilable block. */
  program: string | undefined;
  blocks: number;
  fragments: number;
}

const FENCE = /^```ts([^\n]*)\n([\s\S]*?)^```$/gm;
/** A whole import statement, possibly over several lines. */
const IMPORT = /^import\s[\s\S]*?from\s*["'][^"']+["'];?[^\n]*\n|^import\s*["'][^"']+["'];?[^\n]*\n/gm;

export function readmeProgram(markdown: string): Snippets {
  const scopes: string[][] = [];
  const imports = new Set<string>();
  let blocks = 0;
  let fragments = 0;
  for (const [, info = "", code = ""] of markdown.matchAll(FENCE)) {
    const words = info.trim().split(/\s+/);
    if (words.includes("fragment")) {
      fragments += 1;
      continue;
    }
    blocks += 1;
    const body = code.replace(IMPORT, (statement) => {
      for (const line of splitImport(statement)) imports.add(line);
      return "";
    });
    if (words.includes("continued") && scopes.length > 0) scopes.at(-1)!.push(body);
    else scopes.push([body]);
  }
  if (blocks === 0) return { program: undefined, blocks, fragments };
  const program = [...imports].join("\n") + "\n\n" + scopes.map((s) => `{\n${s.join("\n")}}\n`).join("\n");
  return { program: `${program}\nexport {};\n`, blocks, fragments };
}

/**
 * One import per imported name, so two blocks importing the same name from the same module become
 * one line (a Set dedupes them) while two different names stay two imports.
 */
function splitImport(statement: string): string[] {
  const flat = statement
    .replace(/\/\/[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const named = /^import (type )?\{([^}]*)\} from (["'][^"']+["']);?$/.exec(flat);
  if (!named) return [flat.endsWith(";") ? flat : `${flat};`];
  const [, typeOnly = "", names = "", from = ""] = named;
  return names
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => `import ${typeOnly}{ ${name} } from ${from};`);
}
