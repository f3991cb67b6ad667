import { HELP, type Command } from "../args";
import { SCENARIOS } from "../demo/scenarios";

export function helpText(command: Extract<Command, { name: "help" }>): string {
  return `${command.topic === undefined || command.topic === "help" ? HELP.main : HELP[command.topic]}\n`;
}

export function scenariosText(): string {
  return `${SCENARIOS.map((s) => `${s.name.padEnd(10)} ${s.title.replace(/^\d+ · /, "")}`).join("\n")}\n`;
}
