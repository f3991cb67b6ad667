import { join } from "node:path";
import type { StrategyStore } from "@x/strategy-store-core";
import { startStudio, type ApprovalInbox, type InboxItem, type RunSource, type Studio } from "@x/studio";
import type { CliIo } from "../io";
import { stateDir } from "../park-file";
import { openStrategyStore, redactUrl } from "../store";
import type { StudioCommand } from "../studio-args";
import { parkFolders } from "../studio-parks";
import { queueSource } from "../studio-queue";

/** A studio started by the CLI, with everything it opened. */
export interface OpenStudio {
  studio: Studio;
  close(): Promise<void>;
}

/** Several inboxes as one: a decision goes to the one that lists the park. */
function joinInboxes(inboxes: readonly ApprovalInbox[]): ApprovalInbox {
  return {
    list: async () => (await Promise.all(inboxes.map((inbox) => inbox.list()))).flat(),
    decide: async (id, decision, emit) => {
      for (const inbox of inboxes)
        if ((await inbox.list()).some((item: InboxItem) => item.id === id)) return inbox.decide(id, decision, emit);
      throw new Error(`no call waits on park ${id}`);
    },
  };
}

/** Opens the sources the command line names and starts the studio on them. */
export async function openStudio(command: StudioCommand, io: CliIo): Promise<OpenStudio> {
  const folders = [join(stateDir(io.cwd), "parked"), ...command.parked];
  const parks = parkFolders(io, folders);
  const inboxes: ApprovalInbox[] = [parks.inbox];
  const runs: RunSource[] = [parks.runs];
  const closers: (() => Promise<void>)[] = [];
  let strategies: StrategyStore | undefined;
  try {
    const queueUrl = command.queue ?? io.env.PG_URL;
    if (queueUrl) {
      const queue = await queueSource(queueUrl, command.owner, command.sandbox);
      closers.push(queue.close);
      inboxes.push(queue.inbox);
      runs.push(queue.runs);
      io.emit({ type: "note", text: `queue: ${redactUrl(queueUrl)} (owner ${command.owner})` });
    }
    if (command.store) {
      const opened = await openStrategyStore(command.store);
      strategies = opened.store;
      closers.push(() => opened.store.close());
      io.emit({ type: "note", text: `strategies: ${opened.describe}` });
    }
    const studio = await startStudio({
      host: command.host,
      port: command.port,
      inbox: joinInboxes(inboxes),
      runs,
      scopes: command.scopes,
      ...(strategies ? { strategies } : {}),
      ...(io.env.X_AGENT_STUDIO_TOKEN ? { token: io.env.X_AGENT_STUDIO_TOKEN } : {}),
    });
    return {
      studio,
      close: async () => {
        await studio.close();
        for (const close of closers.reverse()) await close();
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/** `x-agent studio`: serves until Ctrl-C. */
export async function studioCommandRun(command: StudioCommand, io: CliIo): Promise<number> {
  const open = await openStudio(command, io);
  io.emit({ type: "banner", text: "x-agent studio — runs, the approval inbox, strategies and costs" });
  io.emit({ type: "note", text: `open ${open.studio.url}` });
  io.emit({ type: "note", text: "the address holds the studio's token: anyone with it can decide approvals" });
  await new Promise<void>((resolve) => {
    if (!io.onInterrupt) return;
    const off = io.onInterrupt(() => {
      off();
      resolve();
    });
  });
  await open.close();
  return 0;
}
