import { z } from "zod/v4";

/** A tool as the model sees it on the wire: name, description, JSON Schema of the arguments. */
export const ToolSpecSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "tool names are 1-64 chars of [a-zA-Z0-9_-]"),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolSpec = z.infer<typeof ToolSpecSchema>;
