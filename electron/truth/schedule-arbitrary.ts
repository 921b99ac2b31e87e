/** fast-check's generator of truth schedules (for the property test and the benchmark). */

import fc from "fast-check";
import { parseSchedule, pointsOf, type StressFault } from "../../shared/conformance/stress/schedule.js";
import { TRUTH_ACTIONS, type TruthSchedule, truthScheduleOf } from "./truth-schedule.js";

const faultArbitrary: fc.Arbitrary<Omit<StressFault, "prompt"> & { readonly slot: number }> = fc
  .record({
    action: fc.constantFrom(...TRUTH_ACTIONS),
    slot: fc.nat({ max: 3 }),
    pick: fc.boolean(),
    ms: fc.integer({ min: 1, max: 8 }),
  })
  .map(({ action, slot, pick, ms }) => {
    const points = pointsOf(action);
    const on = points.length > 1 ? points[pick ? 1 : 0] : points[0];
    return { action, slot, ...(on ? { on } : {}), ...(action === "delay" ? { ms: ms * 50 } : {}) };
  });

/**
 * A schedule: keyed (9 in 10) with 1 to 4 prompts, or unkeyed with one prompt; 1 to 4 faults, each
 * on a prompt of the schedule; a `delay` holds its frame 50 to 400 ms.
 */
export const truthScheduleArbitrary: fc.Arbitrary<TruthSchedule> = fc
  .record({
    keyed: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
    prompts: fc.integer({ min: 1, max: 4 }),
    faults: fc.array(faultArbitrary, { minLength: 1, maxLength: 4 }),
  })
  .map(({ keyed, prompts, faults }) => {
    const n = keyed ? prompts : 1;
    return {
      keyed,
      prompts: n,
      faults: faults.map(({ slot, ...f }) => ({ ...f, prompt: 1 + (slot % n) })),
    };
  });

/**
 * Schedules every run starts with: the false statements issue 30 reported (the inspector's retries
 * reported as lost to the client, a held prompt declared lost across an agent restart, an unkeyed
 * retry's second insert without a verdict).
 */
export const KNOWN_SCHEDULES: readonly TruthSchedule[] = [
  truthScheduleOf(parseSchedule("1p:lose-and-retry@1.response"), true),
  truthScheduleOf(parseSchedule("1p:restart-and-retry@1.response"), true),
  truthScheduleOf(parseSchedule("2p:delay@2.request+50,restart-and-retry@1.response"), true),
  truthScheduleOf(parseSchedule("1p:lose-and-retry@1.response"), false),
];

/** `count` schedules: the known ones first, then ones drawn with `seed` (the same list for the same seed). */
export function sampleSchedules(seed: number, count: number): TruthSchedule[] {
  const known = KNOWN_SCHEDULES.slice(0, count);
  const drawn =
    count > known.length ? fc.sample(truthScheduleArbitrary, { seed, numRuns: count - known.length }) : [];
  return [...known, ...drawn];
}
