import { randomBytes } from "node:crypto";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import { createMemoryParkLedger, createRunner, defineTool, type Runner, type Tool } from "@x/runner";
import { z } from "zod/v4";

/** The example's agent: it writes what the user asks into a note, and a person approves each write. */
export function notesAgent(): { runner: Runner; tools: Tool[]; notes: string[] } {
  const notes: string[] = [];
  const writeNote = defineTool({
    name: "write_note",
    description: "Writes a note",
    input: z.object({ text: z.string() }),
    permission: "ask",
    execute: async ({ text }) => {
      notes.push(text);
      return `saved note #${notes.length}`;
    },
  });
  // A scripted model, so the page works with no key: asked anything, it writes it down; told the result, it says so.
  const reply: FauxResponder = ({ context }) => {
    const last = context.messages.at(-1);
    if (last?.role === "user" && typeof last.content === "string")
      return fauxToolCall("write_note", { text: last.content }, { text: "I'll write that down." });
    if (last?.role === "toolResult")
      return fauxText(last.isError ? "The note was not written." : "Done: the note is saved.");
    return fauxText("Tell me what to note.");
  };
  const runner = createRunner({
    brains: [createFauxBrain(Array.from({ length: 10_000 }, () => reply))],
    models: { main: fauxModel({ id: "main" }) },
    // One key and one ledger for the process: a park resumes in this server, once.
    parkKey: randomBytes(32),
    parkLedger: createMemoryParkLedger(),
  });
  return { runner, tools: [writeNote], notes };
}
