import { describe, expect, it } from "vitest";
import { routeTask } from "./route";

describe("routeTask", () => {
  it("open-ended review goes to a council; a checkable task to teacher mode; the host's word wins", () => {
    expect(routeTask({ objective: "Find all the bugs in this diff" }).mode).toBe("council");
    expect(routeTask({ objective: "Security review of the login handler" }).mode).toBe("council");
    expect(routeTask({ objective: "Fix the failing test in date.test.ts" }).mode).toBe("teacher");
    expect(routeTask({ objective: "Review the PR", verifiable: true }).mode).toBe("teacher");
    expect(routeTask({ objective: "Fix the bug", mode: "council" })).toEqual({
      mode: "council",
      reason: "the host chose the mode",
    });
  });
});
