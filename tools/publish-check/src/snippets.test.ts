import { describe, expect, it } from "vitest";
import { readmeProgram } from "./snippets";

const fence = (info: string, code: string) => "```ts" + info + "\n" + code + "```\n";

describe("readmeProgram", () => {
  it("hoists and merges imports, scopes each block, continues a 'continued' block and drops fragments", () => {
    const md = [
      "# pkg\n",
      fence("", 'import { a, b } from "lib";\nconst x = a();\n'),
      fence(" continued", 'import { b } from "lib";\nimport {\n  c,\n} from "other"; // why\nconsole.log(x, b, c);\n'),
      fence("", 'import { a } from "lib";\nconst x = a();\n'),
      fence(" fragment", "type T = Unknown;\n"),
      "```sh\nnpm i pkg\n```\n",
    ].join("\n");
    const snippets = readmeProgram(md);
    expect(snippets).toMatchObject({ blocks: 3, fragments: 1 });
    expect(snippets.program).toBe(
      [
        'import { a } from "lib";',
        'import { b } from "lib";',
        'import { c } from "other";',
        "",
        "{\nconst x = a();\n\nconsole.log(x, b, c);\n}\n",
        "{\nconst x = a();\n}\n",
        "export {};\n",
      ].join("\n"),
    );
  });

  it("has no program for a README without TypeScript", () => {
    expect(readmeProgram("# pkg\n\n```sh\nnpm i pkg\n```\n").program).toBeUndefined();
  });
});
