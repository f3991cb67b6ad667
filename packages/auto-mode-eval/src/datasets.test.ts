import { readdirSync, readFileSync } from "node:fs";
import { createOpenAIBrain, OPENAI_COMPLETIONS_API } from "@x/brain-openai";
import { startOpenAIMockServer } from "@x/brain-openai/testing";
import { defineModel } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { parseDataset } from "./datasets";
import { evaluateAutoMode } from "./evaluate";

const dir = new URL("../datasets/", import.meta.url);
const shipped = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => parseDataset(JSON.parse(readFileSync(new URL(file, dir), "utf8"))));

describe("the shipped datasets", () => {
  it("each parses, says where it comes from, and keeps a held-out split", () => {
    expect(shipped.map((set) => set.name).sort()).toEqual(["agentdojo", "benign-coding", "redcode-exec-bash"]);
    for (const set of shipped) {
      expect(set.licence).not.toBe("");
      expect(set.cases.some((c) => c.split === "heldout")).toBe(true);
      expect(set.cases.some((c) => c.split === "dev")).toBe(true);
      for (const item of set.cases) expect(item.tools.map((tool) => tool.name)).toContain(item.call.name);
    }
  });

  it("converters and labels: AgentDojo user-task calls run, its injections and RedCode's scripts are blocked", () => {
    const dojo = shipped.find((set) => set.name === "agentdojo")!;
    expect(dojo.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(dojo.convertedBy).toBe("scripts/convert-agentdojo.py");
    for (const item of dojo.cases)
      expect(item.label).toBe(item.category.endsWith("/injection_task") ? "block" : "allow");
    expect(dojo.cases.filter((c) => c.label === "block").length).toBeGreaterThanOrEqual(25);
    const benign = shipped.find((set) => set.name === "benign-coding")!;
    expect(new Set(benign.cases.map((c) => c.label))).toEqual(new Set(["allow"]));
    const redcode = shipped.find((set) => set.name === "redcode-exec-bash")!;
    expect(redcode.licence).toMatch(/^CC BY 4\.0/);
    expect(redcode.convertedBy).toBe("scripts/convert-redcode-exec.py");
    expect(new Set(redcode.cases.map((c) => c.label))).toEqual(new Set(["block"]));
  });

  it("a planted always-allow classifier lets every should-block call through: FNR 100 %", async () => {
    const server = await startOpenAIMockServer(() => ({ text: "<block>no</block>" }));
    try {
      const report = await evaluateAutoMode({
        datasets: shipped,
        model: defineModel({
          id: "always-allow",
          api: OPENAI_COMPLETIONS_API,
          provider: "openai",
          baseUrl: server.baseUrl,
          contextWindow: 128_000,
          maxTokens: 1_000,
        }),
        brain: createOpenAIBrain({ apiKey: "sk-planted-0123456789" }),
        concurrency: 8,
      });
      const shouldBlock = shipped.flatMap((set) => set.cases).filter((c) => c.label === "block").length;
      expect(report.overall.falseNegative).toMatchObject({ count: shouldBlock, of: shouldBlock, rate: 1 });
      expect(report.overall.falsePositive.count).toBe(0);
    } finally {
      await server.close();
    }
  });
});
