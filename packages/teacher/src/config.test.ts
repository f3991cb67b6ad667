import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { TeacherConfigSchema } from "./config-schema";
import { ONE_SHOT_DEFAULTS, resolveTeacherConfig, TEACHER_DEFAULTS, type TeacherConfig } from "./config";
import { TeacherError } from "./errors";
import { toolRun } from "../test/harness";

const toolTask = toolRun({ objective: "q" });

describe("resolveTeacherConfig", () => {
  it("fills every default the seed lists; a tool run keeps them all, takeoverAfter 2 included", () => {
    expect(TEACHER_DEFAULTS).toEqual({
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
    expect(resolveTeacherConfig({}, toolTask)).toEqual({
      ...TEACHER_DEFAULTS,
      oneShot: false,
      takeoverBrief: "full",
      takeoverAdvice: false,
    });
  });
  it("a task without tools is one-shot: it takes over at once and shows the teacher the bare task", () => {
    expect(ONE_SHOT_DEFAULTS).toEqual({ takeoverAfter: 0, takeoverBrief: "none" });
    expect(resolveTeacherConfig()).toEqual({
      ...TEACHER_DEFAULTS,
      ...ONE_SHOT_DEFAULTS,
      oneShot: true,
      takeoverAdvice: false,
    });
    expect(resolveTeacherConfig({}, { tools: [] }).oneShot).toBe(true);
    // The host decides either way, and its own values win over the shape's defaults.
    expect(resolveTeacherConfig({ oneShot: false })).toMatchObject({
      oneShot: false,
      takeoverAfter: 2,
      takeoverBrief: "full",
    });
    expect(resolveTeacherConfig({ oneShot: true }, toolTask)).toMatchObject({
      takeoverAfter: 0,
      takeoverBrief: "none",
    });
    expect(resolveTeacherConfig({ takeoverAfter: 1, takeoverBrief: "short" })).toMatchObject({
      oneShot: true,
      takeoverAfter: 1,
      takeoverBrief: "short",
    });
  });
  it("asks a takeover for the advice block only when strategy memory will keep it, unless told", () => {
    const memory = { strategyStore: new MemoryStrategyStore(), scope: "t" };
    expect(resolveTeacherConfig({}, toolTask).takeoverAdvice).toBe(false);
    expect(resolveTeacherConfig(memory, toolTask).takeoverAdvice).toBe(true);
    expect(resolveTeacherConfig({ ...memory, takeoverAdvice: false }).takeoverAdvice).toBe(false);
    expect(resolveTeacherConfig({ takeoverAdvice: true, onEscalation: () => {} }).takeoverAdvice).toBe(true);
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
    expect(() => resolveTeacherConfig({ teacherCostRatioCap: -0.1 })).toThrow(/teacherCostRatioCap/);
    expect(() => resolveTeacherConfig({ teacherMaxMicroUsd: 1.5 })).toThrow(/teacherMaxMicroUsd/);
    expect(() => resolveTeacherConfig({ takeoverBrief: "long" as "full" })).toThrow(/takeoverBrief/);
    expect(() => resolveTeacherConfig({ verify: "exact" as unknown as TeacherConfig["verify"] })).toThrow(/verify/);
    expect(() => resolveTeacherConfig({ stuckThreshold: 1.5 })).toThrow(
      expect.objectContaining({ code: "teacher.config_invalid" }),
    );
  });
  it("refuses an unknown option, at the top and in prompts (a misspelt option would silently run its default)", () => {
    const misspelt = { maxEscalation: 0, verifyOutputs: false } as TeacherConfig;
    expect(() => resolveTeacherConfig(misspelt)).toThrow(expect.objectContaining({ code: "teacher.config_invalid" }));
    expect(() => resolveTeacherConfig(misspelt)).toThrow(/maxEscalation.*verifyOutputs|verifyOutputs.*maxEscalation/);
    expect(() => resolveTeacherConfig({ takeOverAfter: 0 } as TeacherConfig)).toThrow(/takeOverAfter/);
    expect(() => resolveTeacherConfig({ prompts: { takeover: "x" } } as TeacherConfig)).toThrow(/prompts/);
  });
  it("refuses options this combination would ignore", () => {
    const store = new MemoryStrategyStore();
    const refused: Array<[TeacherConfig, RegExp]> = [
      [{ strategyStore: store }, /scope/],
      [{ scope: "t" }, /strategyStore/],
      [{ retrieveK: 5 }, /retrieveK/],
      [{ minConfidenceToStore: 1 }, /minConfidenceToStore/],
      [{ injectStrategies: false }, /injectStrategies/],
      [{ verifyOutput: false, verifierSamples: 3 }, /verifierSamples/],
      [{ verifyOutput: false, prompts: { verifier: "V" } }, /prompts\.verifier/],
      [{ useStuckMonitor: false, prompts: { monitor: "M" } }, /prompts\.monitor/],
      [{ verifyOutput: false, useStuckMonitor: false, helperModel: "helper" }, /helperModel/],
      [{ maxEscalations: 0, model: "teacher" }, /model.*maxEscalations is 0/],
      [{ maxEscalations: 0, takeoverAfter: 1 }, /takeoverAfter/],
      [{ maxEscalations: 0, escalationPolicy: () => true }, /escalationPolicy/],
      [{ maxEscalations: 0, prompts: { teacher: "T" } }, /prompts\.teacher/],
    ];
    for (const [config, field] of refused)
      expect(() => resolveTeacherConfig(config), JSON.stringify(Object.keys(config))).toThrow(field);
    // The same options where they are used are accepted.
    expect(() =>
      resolveTeacherConfig({ strategyStore: store, scope: "t", retrieveK: 5, injectStrategies: false }),
    ).not.toThrow();
    expect(() =>
      resolveTeacherConfig({ verifyOutput: false, verify: () => true, helperModel: "helper" }),
    ).not.toThrow();
    // No teacher, but the student is still judged and watched: those options keep their effect.
    expect(() => resolveTeacherConfig({ maxEscalations: 0, verifyOutput: false, useStuckMonitor: true })).not.toThrow();
  });
  it("the schema checks exactly the options TeacherConfig declares (a new option cannot skip validation)", () => {
    expectTypeOf<keyof z.input<typeof TeacherConfigSchema>>().toEqualTypeOf<keyof TeacherConfig>();
    expect(Object.keys(TeacherConfigSchema.shape)).toContain("takeoverBrief");
  });
});
