import { CLASSIFIER_SYSTEM_PROMPT } from "@x/classifier-ladder";
import { MONITOR_PROMPT, TAKEOVER_PROMPT, TEACHER_PROMPT, VERIFIER_PROMPT } from "@x/teacher";
import { describe, expect, it } from "vitest";
import { RunObserver } from "./observe";
import { AGENT_SYSTEM_PROMPT } from "./runtime";

const seat = (teacherMode: boolean, systemPrompt?: string) =>
  new RunObserver(() => {}, { teacherMode }).seatOf({
    messages: [],
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
  });

describe("RunObserver.seatOf", () => {
  it("names each side job by the instructions the packages export", () => {
    expect(seat(true, CLASSIFIER_SYSTEM_PROMPT)).toBe("classifier");
    expect(seat(true, TEACHER_PROMPT)).toBe("teacher");
    expect(seat(true, MONITOR_PROMPT)).toBe("helper");
    expect(seat(true, VERIFIER_PROMPT)).toBe("helper");
    expect(seat(true, AGENT_SYSTEM_PROMPT)).toBe("student");
    expect(seat(false, AGENT_SYSTEM_PROMPT)).toBe("agent");
    expect(seat(false)).toBe("agent");
  });

  it("reports a takeover as the teacher's, whatever brief follows its instruction", () => {
    expect(seat(true, `${AGENT_SYSTEM_PROMPT}\n\n${TAKEOVER_PROMPT}`)).toBe("teacher");
    expect(seat(true, `${AGENT_SYSTEM_PROMPT}\n\n${TAKEOVER_PROMPT}\n\nWhy the student was stopped: stuck — x`)).toBe(
      "teacher",
    );
  });
});
