import type { StrategyStore } from "@x/strategy-store-core";
import type { UIMessageChunk } from "@x/ui-stream";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod/v4";
import { formKey } from "./auth";
import { LiveRuns } from "./live-runs";
import { costsPage } from "./pages/costs";
import { inboxPage } from "./pages/inbox";
import { livePage } from "./pages/live";
import { runsPage } from "./pages/runs";
import { strategiesPage, strategyPage } from "./pages/strategies";
import type { ApprovalInbox, InboxItem, RunSource, RunSummary } from "./sources";

/** What the studio shows and decides: the sources are the host's. */
export interface StudioSources {
  /** Parked calls waiting for a person. */
  inbox?: ApprovalInbox;
  /** Runs and tasks kept elsewhere (the CLI's folder, the queue). */
  runs?: readonly RunSource[];
  /** Strategy memory, searched one scope at a time. */
  strategies?: StrategyStore;
  /** Scopes to offer in the strategy search box (any scope can be typed). */
  scopes?: readonly string[];
}

const DecisionSchema = z.object({
  decision: z.enum(["approve", "deny"]),
  reason: z.string().max(2_000).optional(),
});
const ScopeQuerySchema = z.object({ scope: z.string().trim().min(1).max(200), q: z.string().max(2_000).default("") });

async function settled<T>(tasks: Promise<T[]>[]): Promise<{ values: T[]; failures: string[] }> {
  const results = await Promise.allSettled(tasks);
  return {
    values: results.flatMap((r) => (r.status === "fulfilled" ? r.value : [])),
    failures: results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : [])),
  };
}

/** The studio's pages and actions (the token check is added in front of them by `startStudio`). */
export function studioRoutes(sources: StudioSources, token: string, live = new LiveRuns()): Hono {
  const app = new Hono();
  const key = formKey(token);
  const inboxItems = (): Promise<InboxItem[]> => sources.inbox?.list() ?? Promise.resolve([]);
  const allRuns = async (): Promise<{ values: RunSummary[]; failures: string[] }> => {
    const listed = await settled((sources.runs ?? []).map((source) => source.list()));
    // A decision handed to a queue is the queue's to report: its listing wins over the studio's own line.
    const listedIds = new Set(listed.values.map((run) => run.id));
    const watched = live.list().filter((run) => !(run.status === "handed_off" && listedIds.has(run.runId)));
    const mine: RunSummary[] = watched.map((run) => ({
      id: run.runId,
      label: run.label,
      status: run.status,
      source: "studio",
      at: run.startedAt,
      tokens: run.tokens,
      costMicroUsd: run.costMicroUsd,
    }));
    const mineIds = new Set(mine.map((run) => run.id));
    return { values: [...mine, ...listed.values.filter((run) => !mineIds.has(run.id))], failures: listed.failures };
  };

  app.get("/", (c) => c.redirect("/inbox", 303));

  app.get("/inbox", async (c) => {
    const { values, failures } = await settled([inboxItems()]);
    return c.html(inboxPage(values, key, failures));
  });

  app.post("/inbox/:id/decide", async (c) => {
    const parsed = DecisionSchema.safeParse(await c.req.parseBody());
    if (!parsed.success) return c.text(`not a decision: ${parsed.error.message}`, 400);
    const id = c.req.param("id");
    const entry = (await inboxItems()).find((candidate) => candidate.id === id);
    // Decided already (here, in another tab, by the CLI or a worker): the ledger would refuse it anyway.
    if (!entry || !sources.inbox) return c.text(`no call waits on park ${id}: it was decided already`, 409);
    const { decision, reason } = parsed.data;
    const inbox = sources.inbox;
    live.start(entry.runId, entry.label, (emit) => inbox.decide(id, { decision, ...(reason ? { reason } : {}) }, emit));
    return c.redirect(`/runs/${encodeURIComponent(entry.runId)}/live`, 303);
  });

  app.get("/runs", async (c) => {
    const { values, failures } = await allRuns();
    return c.html(runsPage(values, failures));
  });

  app.get("/runs/:id/live", (c) => {
    const run = live.get(c.req.param("id"));
    return run ? c.html(livePage(run)) : c.text("this studio is not watching that run", 404);
  });

  app.get("/runs/:id/events", (c) => {
    const id = c.req.param("id");
    if (!live.get(id)) return c.text("this studio is not watching that run", 404);
    return streamSSE(c, async (stream) => {
      const queue: (UIMessageChunk | undefined)[] = [];
      let wake: (() => void) | undefined;
      const off = live.subscribe(id, (chunk) => {
        queue.push(chunk);
        wake?.();
      });
      stream.onAbort(() => {
        queue.push(undefined);
        wake?.();
      });
      try {
        for (;;) {
          while (queue.length > 0) {
            const next = queue.shift();
            // `undefined`: the run ended (or the page went away).
            if (next === undefined) return void (await stream.writeSSE({ data: "[DONE]" }));
            await stream.writeSSE({ data: JSON.stringify(next) });
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      } finally {
        off();
      }
    });
  });

  app.get("/strategies", async (c) => {
    const store = sources.strategies;
    const base = { scopes: sources.scopes ?? [], available: store !== undefined };
    const scope = c.req.query("scope");
    if (!store || scope === undefined)
      return c.html(strategiesPage({ ...base, scope: "", query: "", hits: undefined, records: undefined }));
    const parsed = ScopeQuerySchema.safeParse({ scope, q: c.req.query("q") ?? "" });
    if (!parsed.success)
      return c.html(
        strategiesPage({
          ...base,
          scope,
          query: "",
          hits: undefined,
          records: undefined,
          error: "a scope is required",
        }),
        400,
      );
    const { q } = parsed.data;
    try {
      if (q.trim() === "") {
        const page = await store.list({ scope: parsed.data.scope, limit: 100 });
        return c.html(
          strategiesPage({ ...base, scope: parsed.data.scope, query: q, hits: undefined, records: page.records }),
        );
      }
      const hits = await store.search({ scope: parsed.data.scope, query: q, k: 20 });
      return c.html(strategiesPage({ ...base, scope: parsed.data.scope, query: q, hits, records: undefined }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return c.html(
        strategiesPage({ ...base, scope, query: q, hits: undefined, records: undefined, error: message }),
        400,
      );
    }
  });

  app.get("/strategies/:scope/:id", async (c) => {
    const record = await sources.strategies?.get(c.req.param("scope"), c.req.param("id"));
    return record ? c.html(strategyPage(record, key)) : c.text("no such strategy in this scope", 404);
  });

  app.post("/strategies/:scope/:id/delete", async (c) => {
    const scope = c.req.param("scope");
    const deleted = await sources.strategies?.delete(scope, c.req.param("id"));
    if (!deleted) return c.text("no such strategy in this scope", 404);
    return c.redirect(`/strategies?scope=${encodeURIComponent(scope)}`, 303);
  });

  app.get("/costs", async (c) => c.html(costsPage((await allRuns()).values)));

  return app;
}
