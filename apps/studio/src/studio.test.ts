import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import { createRunner, defineSubRunTool, defineTool } from "@x/runner";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { createTwoFilesPatch } from "diff";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { createRunnerInbox } from "./runner-inbox";
import { startStudio, type Studio } from "./studio";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = resolve(import.meta.dirname, "../.test-results/screenshots");

let browser: Browser;
let studio: Studio;
let sandbox: string;
const writes: string[] = [];

/** A real file write inside the sandbox, asked of a person every time. */
const writeFileTool = defineTool({
  name: "write_file",
  description: "Writes a file of the sandbox",
  input: z.object({ path: z.string(), content: z.string() }),
  permission: "ask",
  execute: async ({ path, content }) => {
    writes.push(path);
    await writeFile(join(sandbox, path), content);
    return `wrote ${path}`;
  },
});

/** The change a write would make to a file that exists, by the `diff` package. */
async function describe_(call: { name: string; arguments: Record<string, unknown> }) {
  const { path, content } = call.arguments;
  if (call.name !== "write_file" || typeof path !== "string" || typeof content !== "string") return {};
  const target = join(sandbox, path);
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  return exists ? { diff: createTwoFilesPatch(path, path, await readFile(target, "utf8"), content) } : {};
}

beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), "x-studio-"));
  await writeFile(join(sandbox, "NOTES.md"), "# Notes\n\n- old line\n");
  // A scripted model that answers by what it was last told, so the runs may go in any order.
  const WRITES: Record<string, { path: string; content: string }> = {
    "update the notes": { path: "NOTES.md", content: "# Notes\n\n- new line\n" },
    "write the secret": { path: "secrets.txt", content: "hunter2" },
    "write the log": { path: "build.log", content: "ok\n" },
  };
  const reply: FauxResponder = ({ context }) => {
    const last = context.messages.at(-1);
    if (last?.role === "user" && typeof last.content === "string") {
      if (last.content === "delegate the log") return fauxToolCall("helper", { question: "write the log" });
      const write = WRITES[last.content];
      if (write) return fauxToolCall("write_file", write);
    }
    if (last?.role === "toolResult" && last.toolName === "helper") return fauxText("The helper wrote the log.");
    if (last?.role === "toolResult")
      return fauxText(
        last.isError ? "Understood: it stays as it is." : `${last.toolName}: done, ${JSON.stringify(last.content)}`,
      );
    return fauxText("nothing to do");
  };
  const helper = defineSubRunTool({
    name: "helper",
    description: "Hands a task to a helper that can write files",
    input: z.object({ question: z.string() }),
    task: ({ question }) => ({ objective: question, tools: [writeFileTool] }),
  });
  const runner = createRunner({
    brains: [createFauxBrain(Array.from({ length: 100 }, () => reply))],
    models: { main: fauxModel({ id: "main", cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } }) },
  });
  const inbox = createRunnerInbox({ runner, resume: { tools: [writeFileTool, helper] }, describe: describe_ });
  for (const [label, objective] of [
    ["notes", "update the notes"],
    ["secrets", "write the secret"],
    ["delegated", "delegate the log"],
  ] as const) {
    const result = await runner.runTask({ objective, tools: [writeFileTool, helper] });
    expect(result.status).toBe("parked");
    inbox.add(result.parked!, label);
  }
  const strategies = new MemoryStrategyStore();
  await strategies.put({
    scope: "team-a",
    problem: "log files fill the disk",
    strategy: "rotate the logs weekly",
    confidence: 2,
    source: "teacher",
  });
  await strategies.put({
    scope: "team-b",
    problem: "API keys leak into logs",
    strategy: "rotate the keys monthly",
    confidence: 2,
    source: "teacher",
  });
  studio = await startStudio({ inbox, strategies, scopes: ["team-a", "team-b"] });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await studio?.close();
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

/** Runs a browser step; on failure the page is saved as a screenshot beside the test results, then it fails. */
async function inPage(name: string, body: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await body(page);
  } catch (error) {
    const file = join(SHOTS, `${name}.png`);
    await mkdir(dirname(file), { recursive: true });
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

describe("the studio in headless Chromium", () => {
  it("a failing browser step leaves a screenshot of the page behind", async () => {
    const shot = join(SHOTS, "self-check.png");
    await rm(shot, { force: true });
    await expect(
      inPage("self-check", async (page) => {
        await page.goto(studio.url);
        throw new Error("planted failure");
      }),
    ).rejects.toThrow("planted failure");
    expect((await stat(shot)).size).toBeGreaterThan(1_000);
    await rm(shot);
  });

  it("without its token the studio shows nothing", async () => {
    const response = await fetch(`${studio.origin}/inbox`);
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("write_file");
  });

  it("the inbox shows a parked write whole with its diff; approve runs it once, the run completes live", async () => {
    await inPage("approve", async (page) => {
      await page.goto(studio.url);
      const card = page.locator("[data-testid=inbox-item]", { hasText: "NOTES.md" });
      await expect(card.locator("[data-testid=arguments]").textContent()).resolves.toContain(
        '"content": "# Notes\\n\\n- new line\\n"',
      );
      const diff = (await card.locator("[data-testid=diff]").textContent()) ?? "";
      expect(diff).toContain("-- old line");
      expect(diff).toContain("+- new line");
      expect(await card.locator("[data-testid=path]").textContent()).toContain(
        "none (the top-level run made this call)",
      );
      expect(writes).toEqual([]);

      await card.locator("[data-testid=approve]").click();
      await page.waitForURL(/\/runs\/.+\/live$/);
      await page.locator("[data-testid=status]", { hasText: "completed" }).waitFor();
      expect((await page.locator("[data-testid=text]").allTextContents()).join(" ")).toContain("write_file: done");
      expect(await page.locator("[data-testid=tool-output]").allTextContents()).toContain("→ wrote NOTES.md");
      expect(await readFile(join(sandbox, "NOTES.md"), "utf8")).toBe("# Notes\n\n- new line\n");
      expect(writes).toEqual(["NOTES.md"]);
    });
  });

  it("deny: the other call never runs, and a decided park is gone from the inbox", async () => {
    await inPage("deny", async (page) => {
      await page.goto(studio.url);
      const card = page.locator("[data-testid=inbox-item]", { hasText: "secrets.txt" });
      await card.locator("input[name=reason]").fill("no secrets on disk");
      await card.locator("[data-testid=deny]").click();
      await page.locator("[data-testid=status]", { hasText: "completed" }).waitFor();
      expect(await page.locator("[data-testid=tool-output]").allTextContents()).toContain("✗ denied");
      expect(writes).toEqual(["NOTES.md"]);
      await page.goto(`${studio.origin}/inbox`);
      expect(await page.locator("[data-testid=inbox-item]", { hasText: "secrets.txt" }).count()).toBe(0);
    });
  });

  it("a call inside a sub-run shows the runs above it; approved, the helper writes and the run completes", async () => {
    await inPage("sub-run", async (page) => {
      await page.goto(studio.url);
      const card = page.locator("[data-testid=inbox-item]", { hasText: "build.log" });
      expect(await card.locator("[data-testid=path]").textContent()).toMatch(/→ helper \(/);
      await card.locator("[data-testid=approve]").click();
      await page.locator("[data-testid=status]", { hasText: "completed" }).waitFor();
      expect(writes).toEqual(["NOTES.md", "build.log"]);
      await page.goto(`${studio.origin}/inbox`);
      await page.locator("[data-testid=inbox-empty]").waitFor();
    });
  });

  it("costs: every decided run is priced, per run and per day", async () => {
    await inPage("costs", async (page) => {
      await page.goto(`${studio.origin}/costs?token=${studio.token}`);
      expect(await page.getByTestId("total").textContent()).toMatch(/^\$0\.\d{6}$/);
      expect(await page.getByTestId("total").textContent()).not.toBe("$0.000000");
      expect(await page.locator("[data-testid=per-run] tr").count()).toBe(3);
      expect(await page.locator("[data-testid=per-day] tr").count()).toBe(1);
    });
  });

  it("strategies: a search in one scope shows that scope's, never another's", async () => {
    await inPage("strategies", async (page) => {
      await page.goto(`${studio.origin}/strategies?token=${studio.token}`);
      await page.locator("[data-testid=scope]").fill("team-a");
      await page.locator("[data-testid=query]").fill("rotate");
      await page.locator("[data-testid=search]").click();
      const rows = await page.locator("[data-testid=strategy-row]").allTextContents();
      expect(rows.join(" ")).toContain("rotate the logs weekly");
      expect(rows.join(" ")).not.toContain("rotate the keys monthly");
      expect(rows).toHaveLength(1);

      await page.locator("[data-testid=strategy-row] a").click();
      expect(await page.getByTestId("strategy").textContent()).toContain('"scope": "team-a"');
      await page.getByTestId("delete").click();
      await page.waitForURL(/\/strategies\?scope=team-a$/);
      expect(await page.locator("[data-testid=strategy-row]").count()).toBe(0);
      // The other scope's strategy is untouched.
      await page.goto(`${studio.origin}/strategies?scope=team-b&q=rotate`);
      expect(await page.locator("[data-testid=strategy-row]").allTextContents()).toEqual([
        expect.stringContaining("rotate the keys monthly"),
      ]);
    });
  });
});
