/** Stress schedules: generation, and the text form's parse/print round trip (unit). */
import { describe, expect, it } from "vitest";
import {
  generateSchedule,
  MAX_PROMPTS,
  parseSchedule,
  pointsOf,
  printSchedule,
  ScheduleError,
  STRESS_ACTIONS,
} from "./schedule.js";

describe("stress schedules", () => {
  it("round-trips every generated schedule through its text form", () => {
    const texts = new Set<string>();
    for (let seed = 0; seed < 5; seed++)
      for (let i = 0; i < 200; i++) {
        const s = generateSchedule(seed, i);
        const text = printSchedule(s);
        texts.add(text);
        expect(parseSchedule(text)).toEqual(s);
        expect(printSchedule(parseSchedule(text))).toBe(text);
      }
    // Random, not constant: 1000 schedules are mostly different (one-fault ones repeat).
    expect(texts.size).toBeGreaterThan(700);
  });

  it("is a pure function of seed and index", () => {
    expect(generateSchedule(7, 3)).toEqual(generateSchedule(7, 3));
    expect(printSchedule(generateSchedule(7, 3))).not.toBe(printSchedule(generateSchedule(8, 3)));
  });

  it("uses every action at every point it can hit, within the limits", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const s = generateSchedule(1, i);
      expect(s.prompts).toBeGreaterThanOrEqual(2);
      expect(s.prompts).toBeLessThanOrEqual(4);
      expect(s.faults.length).toBeGreaterThanOrEqual(1);
      expect(s.faults.length).toBeLessThanOrEqual(4);
      for (const f of s.faults) {
        expect(f.prompt).toBeLessThanOrEqual(s.prompts);
        seen.add(`${f.action}.${f.on ?? ""}`);
      }
    }
    const expected = STRESS_ACTIONS.flatMap((a) =>
      pointsOf(a).length ? pointsOf(a).map((p) => `${a}.${p}`) : [`${a}.`],
    );
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it("reads a hand-written schedule, filling in the defaults", () => {
    expect(parseSchedule(" 3p:drop-response@2,kill-agent@1.request,delay@3+400,cancel@2 ")).toEqual({
      prompts: 3,
      faults: [
        { action: "drop-response", prompt: 2, on: "response" },
        { action: "kill-agent", prompt: 1, on: "request" },
        { action: "delay", prompt: 3, on: "response", ms: 400 },
        { action: "cancel", prompt: 2, ms: 0 },
      ],
    });
    expect(parseSchedule("2p")).toEqual({ prompts: 2, faults: [] });
    expect(printSchedule({ prompts: 1, faults: [] })).toBe("1p");
  });

  it("refuses bad schedules, naming the bad part", () => {
    const bad: [string, RegExp][] = [
      ["", /starts with the number of prompts/],
      ["drop-response@1", /starts with the number of prompts/],
      [`${MAX_PROMPTS + 1}p`, /1 to 6 prompts/],
      ["0p", /1 to 6 prompts/],
      ["2p:explode@1", /unknown action 'explode'/],
      ["2p:drop-response@3", /prompt 3 is not one of the schedule's 2/],
      ["2p:drop-response@1.request", /drop-response hits \.response/],
      ["2p:cancel@1.request", /cancel takes no \.request/],
      ["2p:kill-agent@1+40", /only delay and cancel take \+MS/],
      ["2p:delay@1+9999999", /at most \+60000 ms/],
      ["2p:drop-response@", /is not ACTION@PROMPT/],
      ["2p:drop-response@1,,kill-agent@1", /'' is not ACTION@PROMPT/],
    ];
    for (const [text, message] of bad) {
      expect(() => parseSchedule(text), text).toThrow(ScheduleError);
      expect(() => parseSchedule(text), text).toThrow(message);
    }
  });
});
