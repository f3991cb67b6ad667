import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { MONITOR_PROMPT, TAKEOVER_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "@x/teacher";
import { describe, expect, it } from "vitest";
import { RunObserver } from "./observe";
import { AGENT_SYSTEM_PROMPT } from "./runtime";

const speaker = (teacherMode: boolean, systemPrompt?: string) =>
  new RunObserver(() => {}, { teacherMode }).speakerOf({
    messages: [],
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
  });

describe("RunObserver.speakerOf", () => {
  it("names each side job by the instructions the packages export", () => {
    expect(speaker(true, CLASSIFIER_SYSTEM_PROMPT)).toBe("classifier");
    expect(speaker(true, TEACHER_PROMPT)).toBe("teacher");
    expect(speaker(true, MONITOR_PROMPT)).toBe("helper");
    expect(speaker(true, VERIFIER_PROMPT)).toBe("helper");
    expect(speaker(true, AGENT_SYSTEM_PROMPT)).toBe("student");
    expect(speaker(false, AGENT_SYSTEM_PROMPT)).toBe("agent");
    expect(speaker(false)).toBe("agent");
  });

  it("reports a takeover as the teacher's, whatever brief follows its instruction", () => {
    expect(speaker(true, `${AGENT_SYSTEM_PROMPT}\n\n${TAKEOVER_PROMPT}`)).toBe("teacher");
    expect(
      speaker(true, `${AGENT_SYSTEM_PROMPT}\n\n${TAKEOVER_PROMPT}\n\nWhy the student was stopped: stuck — x`),
    ).toBe("teacher");
  });
});
