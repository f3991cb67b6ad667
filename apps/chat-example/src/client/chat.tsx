import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useState } from "react";

type Part = UIMessage["parts"][number];
type Answer = (response: { id: string; approved: boolean; reason?: string }) => void | PromiseLike<void>;

/** A tool call as the page shows it: its input, and Approve / Deny while it waits for the person. */
function ToolCall({ part, answer }: { part: Extract<Part, { type: "dynamic-tool" }>; answer: Answer }) {
  return (
    <div data-testid="tool" data-state={part.state} style={{ borderLeft: "3px solid #4a7bd0", paddingLeft: 8 }}>
      <code>{part.toolName}</code> <code>{JSON.stringify(part.input)}</code>
      {part.state === "approval-requested" && (
        <p>
          <button data-testid="approve" onClick={() => void answer({ id: part.approval.id, approved: true })}>
            Approve
          </button>
          <button
            data-testid="deny"
            onClick={() => void answer({ id: part.approval.id, approved: false, reason: "not now" })}
          >
            Deny
          </button>
        </p>
      )}
      {part.state === "output-available" && <pre data-testid="output">{String(part.output)}</pre>}
      {part.state === "output-denied" && <p data-testid="denied">denied</p>}
    </div>
  );
}

/** The whole product page: messages, their parts, and a box to write in. */
export function Chat() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport: new DefaultChatTransport({ api: "/api/chat" }),
    // After Approve / Deny the answer goes back to the route at once, which resumes the parked run.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  return (
    <main style={{ font: "15px system-ui", maxWidth: 720, margin: "2rem auto" }}>
      <h1>Notes assistant</h1>
      {messages.map((message) => (
        <div key={message.id} data-testid={`message-${message.role}`}>
          <strong>{message.role}</strong>
          {message.parts.map((part, index) =>
            part.type === "text" ? (
              <p key={index} data-testid="text">
                {part.text}
              </p>
            ) : part.type === "dynamic-tool" ? (
              <ToolCall key={index} part={part} answer={addToolApprovalResponse} />
            ) : null,
          )}
        </div>
      ))}
      {error && <p data-testid="error">{error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === "") return;
          void sendMessage({ text: input });
          setInput("");
        }}
      >
        <input data-testid="input" value={input} onChange={(event) => setInput(event.target.value)} />
        <button data-testid="send" disabled={status !== "ready"}>
          Send
        </button>
      </form>
    </main>
  );
}
