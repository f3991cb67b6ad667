/**
 * The live view's client: it reads the run's UI message stream with the browser's own EventSource and appends
 * DOM nodes with textContent (never HTML). Plain script, no framework: the page is drawn by the server, this only
 * adds what arrives.
 */
export const LIVE_SCRIPT = String.raw`
function watch(url) {
  const log = document.getElementById("log");
  const tree = document.getElementById("tree");
  const status = document.querySelector("[data-testid=status]");
  const cost = document.querySelector("[data-testid=cost]");
  const texts = {};
  const tools = {};
  const subRuns = {};
  const add = (tag, cls, text, testid) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (testid) node.dataset.testid = testid;
    node.textContent = text;
    log.appendChild(node);
    return node;
  };
  const source = new EventSource(url);
  source.onmessage = (message) => {
    if (message.data === "[DONE]") return source.close();
    const chunk = JSON.parse(message.data);
    switch (chunk.type) {
      case "text-start": texts[chunk.id] = add("p", "text", "", "text"); break;
      case "text-delta": texts[chunk.id].textContent += chunk.delta; break;
      case "tool-input-available":
        tools[chunk.toolCallId] = add("div", "tool", chunk.toolName + " " + JSON.stringify(chunk.input), "tool");
        break;
      case "tool-output-available": {
        const output = typeof chunk.output === "string" ? chunk.output : JSON.stringify(chunk.output);
        add("pre", "tool", "→ " + output, "tool-output");
        break;
      }
      case "tool-output-error": add("pre", "tool", "✗ " + chunk.errorText, "tool-output"); break;
      case "tool-output-denied": add("pre", "tool", "✗ denied", "tool-output"); break;
      case "tool-approval-request":
        add("p", "verdict", "waits for approval: " + (chunk.reason || ""), "approval");
        break;
      case "data-x-verdict":
        add("p", "verdict", "auto mode: " + chunk.data.verdict + " " + chunk.data.toolName +
          (chunk.data.reason ? " — " + chunk.data.reason : ""), "verdict");
        break;
      case "data-x-approval": add("p", "verdict", "person: " + chunk.data.decision, "approval"); break;
      case "data-x-cost": cost.textContent = "$" + (chunk.data.costMicroUsd / 1e6).toFixed(6); break;
      case "data-x-sub-run": {
        const key = chunk.data.path.map((step) => step.toolCallId).join("/");
        let node = subRuns[key];
        if (!node) {
          node = subRuns[key] = document.createElement("li");
          node.style.marginLeft = (chunk.data.path.length - 1) * 1.2 + "rem";
          tree.appendChild(node);
        }
        node.textContent = chunk.data.path.map((step) => step.toolName).join(" › ") + ": " + chunk.data.event +
          (chunk.data.status ? " (" + chunk.data.status + ")" : "") + (chunk.data.text ? " — " + chunk.data.text : "");
        break;
      }
      case "data-x-result": status.textContent = chunk.data.status; break;
      case "error":
        add("p", "error", "error: " + chunk.errorText, "error");
        if (status.textContent === "running") status.textContent = "refused";
        break;
    }
  };
  source.onerror = () => source.close();
}
`;
