import { describe, expect, it } from "vitest";
import { redactUrl } from "./store";

describe("redactUrl", () => {
  it("hides a password and key-like query values, and keeps the rest readable", () => {
    expect(redactUrl("postgres://me:hunter2@db.example:5432/x")).toBe("postgres://me:***@db.example:5432/x");
    expect(redactUrl("https://gw.example/v1?api-version=2024&api-key=sk-123&token=t")).toBe(
      "https://gw.example/v1?api-version=2024&api-key=***&token=***",
    );
    expect(redactUrl("https://api.openai.com/v1")).toBe("https://api.openai.com/v1");
    expect(redactUrl("not a url")).toBe("(unparseable URL)");
  });
});
