// The turn-cost bench's script, read by the scripted brain in process and by the model server over the
// wire alike: the objective names the tool to call and the run's length ("edit 50 pages").

/** The objective of a run of `length` turns that calls `tool` in each but the last. */
export const turnObjective = (tool: string, length: number) => `${tool} ${length} pages`;

/** The call the next turn makes after `results` tool results, or undefined when it is the answer. */
export function nextCall(objective: unknown, results: number): { tool: string; n: number } | undefined {
  const [tool, length] = (typeof objective === "string" ? objective : "").split(" ");
  return tool && results < Number(length) - 1 ? { tool, n: results + 1 } : undefined;
}
