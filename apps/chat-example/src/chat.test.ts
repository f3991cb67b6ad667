import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClient } from "./build-client";
import { startChatExample } from "./server";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = resolve(import.meta.dirname, "../.test-results/screenshots");

let browser: Browser;
let server: Awaited<ReturnType<typeof startChatExample>>;

beforeAll(async () => {
  server = await startChatExample({ clientDir: await buildClient() });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function inPage(name: string, body: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.newPage();
  try {
    await body(page);
  } catch (error) {
    const file = join(SHOTS, `${name}.png`);
    await mkdir(dirname(file), { recursive: true });
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await page.close();
  }
}

describe("useChat (@ai-sdk/react) in headless Chromium against the runner's UI stream", () => {
  it("approve writes the note once and the answer streams in; deny writes nothing", async () => {
    await inPage("chat", async (page) => {
      await page.goto(server.url);
      await page.getByTestId("input").fill("buy oat milk");
      await page.getByTestId("send").click();
      await page.locator("[data-testid=tool][data-state=approval-requested]").waitFor();
      expect(await page.getByTestId("tool").textContent()).toContain('{"text":"buy oat milk"}');
      expect(server.notes).toEqual([]);

      await page.getByTestId("approve").click();
      await page.getByTestId("output").waitFor();
      expect(await page.getByTestId("output").textContent()).toBe("saved note #1");
      await page.getByText("Done: the note is saved.").waitFor();
      expect(server.notes).toEqual(["buy oat milk"]);

      await page.getByTestId("input").fill("call the bank");
      await page.getByTestId("send").click();
      await page.locator("[data-testid=tool][data-state=approval-requested]").waitFor();
      await page.getByTestId("deny").click();
      await page.getByTestId("denied").waitFor();
      await page.getByText("The note was not written.").waitFor();
      expect(server.notes).toEqual(["buy oat milk"]);
      expect(await page.getByTestId("error").count()).toBe(0);
    });
  });
});
