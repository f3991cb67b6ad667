import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { ADVERSARIAL_CORPUS, replayBrain } from "@x/classifier-ladder/testing";
import { describe, expect, it } from "vitest";
import { createRunner } from "./runner";
import { fakeClock, main, recorder } from "../../test/harness";

const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });

describe("the adversarial reply corpus through whole runs", () => {
  it("a gated tool's execute() runs exactly for the clean allows", async () => {
    const wrong: string[] = [];
    let allowed = 0;
    for (const c of ADVERSARIAL_CORPUS) {
      const { tool, calls } = recorder("shell");
      const runner = createRunner({
        brains: [
          createFauxBrain([fauxToolCall("shell", { text: "rm -rf ./build" }), fauxText("done")]),
          replayBrain("faux-cls", c.reply),
        ],
        models: { main, cls },
        roles: { default: "main", classifier: "cls" },
        clock: fakeClock(),
        autoMode: { classifierFallback: "none" },
      });
      const result = await runner.runTask({
        objective: "Clean the build directory.",
        tools: [tool],
        permissions: { shell: "auto" },
      });
      const ran = calls.length > 0;
      if (ran !== (c.expect === "allow"))
        wrong.push(`${c.category}: ${JSON.stringify(c.name)} ${ran ? "ran" : "did not run"} (${result.status})`);
      if (ran) allowed++;
    }
    expect(wrong).toEqual([]);
    expect(allowed).toBe(ADVERSARIAL_CORPUS.filter((c) => c.expect === "allow").length);
    // 800+ whole runs: seconds on an idle machine, far more on a loaded one.
  }, 180_000);
});
