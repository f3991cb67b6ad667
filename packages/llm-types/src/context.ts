import type { Message } from "./messages";
import type { ToolSpec } from "./tool";

/** Everything a model call sends besides the request knobs. */
export interface Context {
  systemPrompt?: string;
  messages: Message[];
  tools?: ToolSpec[];
}
