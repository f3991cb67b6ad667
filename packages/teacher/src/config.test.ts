import { describe, expect, it } from "vitest";
import { resolveTeacherConfig, TEACHER_DEFAULTS } from "./config";
import { TeacherError } from "./errors";

describe("resolveTeacherConfig", () => {
  it("fills every default the spec lists", () => {
    expect(resolveTeacherConfig()).toEqual({
      maxEscalations: 3,
      teacherSpendRatioCap: 0.4,
      stuckThreshold: 3,
      stuckHardOverride: 5,
      useStuckMonitor: true,
      verifyOutput: true,
      takeoverAfter: 2,
      verifierSamples: 1,
      retrieveK: 3,
      minConfidenceToStore: 2,
      injectStrategies: true,
    });
    expect(resolveTeacherConfig()).toEqual(TEACHER_DEFAULTS);
  });
  it("keeps given values, and treats undefined as not given", () => {
    const c = resolveTeacherConfig({ maxEscalations: 1, verifyOutput: false, stuckThreshold: undefined });
    expect(c.maxEscalations).toBe(1);
    expect(c.verifyOutput).toBe(false);
    expect(c.stuckThreshold).toBe(3);
  });
  it("refuses out-of-range numbers with a typed error naming the field", () => {
    expect(() => resolveTeacherConfig({ verifierSamples: 0 })).toThrow(TeacherError);
    expect(() => resolveTeacherConfig({ teacherSpendRatioCap: -1 })).toThrow(/teacherSpendRatioCap/);
    expect(() => resolveTeacherConfig({ scope: "   " })).toThrow(/scope/);
    expect(() => resolveTeacherConfig({ stuckThreshold: 1.5 })).toThrow(
      expect.objectContaining({ code: "teacher.config_invalid" }),
    );
  });
});
