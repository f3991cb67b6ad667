import { AbstractChat, DefaultChatTransport, type ChatInit, type ChatState, type UIMessage } from "ai";

/** The state `useChat` keeps in React, kept in an array: the same `AbstractChat` runs over it. */
class ArrayState implements ChatState<UIMessage> {
  status: ChatState<UIMessage>["status"] = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** The AI SDK's own chat (what `useChat` wraps), talking to `api` with its default HTTP transport. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(api: string, init: Omit<ChatInit<UIMessage>, "transport"> = {}) {
    super({ ...init, transport: new DefaultChatTransport({ api }), state: new ArrayState() });
  }

  /** Resolves once the chat is idle again (a request sent automatically after an approval included). */
  async settled(): Promise<void> {
    for (let i = 0; i < 400 && (this.status === "submitted" || this.status === "streaming"); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
