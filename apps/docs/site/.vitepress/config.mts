import { readdirSync } from "node:fs";
import { defineConfig } from "vitepress";

// Pages are generated into site/ by scripts/generate.mjs; the sidebar lists what it wrote.
const packages = readdirSync(new URL("../packages", import.meta.url))
  .filter((file) => file.endsWith(".md"))
  .map((file) => file.slice(0, -3))
  .sort();

export default defineConfig({
  title: "@x agent core",
  description: "A stateless agent core for TypeScript: auto mode, teacher mode, strategy memory.",
  cleanUrls: true,
  // The raw markdown copies under public/ (for llms.txt readers) are files, not pages.
  srcExclude: ["public/**"],
  // A dead link fails the build (VitePress's own check): the site is link-checked on every build.
  ignoreDeadLinks: false,
  themeConfig: {
    nav: [
      { text: "Guides", link: "/guides" },
      { text: "First agent", link: "/first-agent" },
      { text: "Benchmarks", link: "/bench" },
    ],
    sidebar: [
      {
        text: "Start",
        items: [
          { text: "Overview", link: "/" },
          { text: "Your first agent", link: "/first-agent" },
          { text: "Guides", link: "/guides" },
        ],
      },
      { text: "Packages", items: packages.map((name) => ({ text: `@x/${name}`, link: `/packages/${name}` })) },
      {
        text: "API reference",
        collapsed: true,
        items: packages.map((name) => ({ text: `@x/${name}`, link: `/api/${name}` })),
      },
      { text: "Benchmarks", items: [{ text: "Tables", link: "/bench" }] },
    ],
    search: { provider: "local" },
  },
});
