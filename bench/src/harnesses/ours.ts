// Our runner with @x/brain-openai: wired once @x/runner and @x/brain-openai land.
import type { Harness } from "./types";

export const ours: Harness = {
  label: "@x/runner + @x/brain-openai",
  packages: ["@x/runner", "@x/brain-openai"],
  async setup() {
    return { unavailable: "pending: @x/runner and @x/brain-openai have not landed yet" };
  },
};
