/**
 * A stress schedule: a multi-prompt session (all prompts submitted at once, so every prompt after
 * the first is held behind a running turn) and the faults that hit it, each at one point: the
 * request or the response of one prompt (the tap's fault rules match it by that prompt's key), or,
 * for a client `cancel`, some milliseconds after the prompt was first sent.
 *
 * Text form (what `--schedule` takes and the shrinker prints):
 *
 *     SPEC := PROMPTS "p" [ ":" ITEM ( "," ITEM )* ]
 *     ITEM := ACTION "@" PROMPT [ "." ("request" | "response") ] [ "+" MS ]
 *
 * e.g. `3p:drop-response@2.response,kill-agent@1.request,delay@3.response+400,cancel@2+50`.
 * `+MS` is the hold of a `delay` and the wait of a `cancel`; `cancel` has no `.request`/`.response`.
 */

import { FAULT_ACTION_TABLE } from "../../faults/fault-actions.js";
import { Prng, scheduleSeed } from "./prng.js";

/** The tap's fault actions a schedule uses (docs/faults.md), and the client's `cancel`. */
export const STRESS_ACTIONS = [
  "drop-response",
  "drop-request",
  "delay",
  "disconnect-client",
  "kill-agent",
  "restart-agent",
  "lose-and-retry",
  "restart-and-retry",
  "cancel",
] as const;

/** One action of a schedule. */
export type StressAction = (typeof STRESS_ACTIONS)[number];

/** Which frame of its prompt a fault hits. */
export type StressPoint = "request" | "response";

/** One fault of a schedule. */
export interface StressFault {
  readonly action: StressAction;
  /** The prompt it hits, 1-based. */
  readonly prompt: number;
  /** The frame it hits (absent for `cancel`). */
  readonly on?: StressPoint;
  /** `delay`: how long the frame is held; `cancel`: how long after the prompt was sent. */
  readonly ms?: number;
}

/** A whole schedule. */
export interface StressSchedule {
  /** Prompts in the session (1..MAX_PROMPTS). */
  readonly prompts: number;
  readonly faults: readonly StressFault[];
}

/** Limits of schedules, generated or given. */
export const MAX_PROMPTS = 6;
export const MAX_FAULTS = 12;
export const MAX_MS = 60_000;

/** The points an action may hit: the retry actions act on an answer only, drop-response on a response, drop-request on a request. */
export function pointsOf(action: StressAction): readonly StressPoint[] {
  return action === "cancel" ? [] : FAULT_ACTION_TABLE[action].triggers;
}

/** Whether the action takes `+MS`. */
export function takesMs(action: StressAction): boolean {
  return action === "delay" || action === "cancel";
}

/** Schedule number `index` of a run seeded with `seed`: 2-4 prompts and 1-4 faults at random points. */
export function generateSchedule(seed: number, index: number): StressSchedule {
  const rng = new Prng(scheduleSeed(seed, index));
  const prompts = rng.int(2, 4);
  const count = rng.int(1, 4);
  const faults: StressFault[] = [];
  for (let i = 0; i < count; i++) {
    const action = rng.pick(STRESS_ACTIONS);
    const prompt = rng.int(1, prompts);
    const points = pointsOf(action);
    const on = points.length > 0 ? rng.pick(points) : undefined;
    const ms =
      action === "delay" ? rng.int(1, 20) * 50 : action === "cancel" ? rng.int(0, 10) * 20 : undefined;
    faults.push({ action, prompt, ...(on ? { on } : {}), ...(ms !== undefined ? { ms } : {}) });
  }
  return { prompts, faults };
}

/** The text form of a fault. */
export function printFault(fault: StressFault): string {
  return `${fault.action}@${fault.prompt}${fault.on ? `.${fault.on}` : ""}${fault.ms !== undefined ? `+${fault.ms}` : ""}`;
}

/** The text form of a schedule (`parseSchedule` reads it back to the same schedule). */
export function printSchedule(schedule: StressSchedule): string {
  const items = schedule.faults.map(printFault);
  return `${schedule.prompts}p${items.length > 0 ? `:${items.join(",")}` : ""}`;
}

/** A schedule that cannot be read: the message says which part and why. */
export class ScheduleError extends Error {}

const ITEM = /^([a-z-]+)@(\d+)(?:\.([a-z]+))?(?:\+(\d+))?$/;

/** Reads a schedule's text form; throws `ScheduleError` naming the bad part. */
export function parseSchedule(text: string): StressSchedule {
  const trimmed = text.trim();
  const head = /^(\d+)p(?::(.*))?$/s.exec(trimmed);
  if (!head)
    throw new ScheduleError(
      `a schedule starts with the number of prompts, e.g. 3p:drop-response@2.response; got '${text}'`,
    );
  const prompts = Number(head[1]);
  if (prompts < 1 || prompts > MAX_PROMPTS)
    throw new ScheduleError(`a schedule has 1 to ${MAX_PROMPTS} prompts, got ${prompts}`);
  const body = head[2];
  const items = body === undefined || body.trim() === "" ? [] : body.split(",");
  if (items.length > MAX_FAULTS)
    throw new ScheduleError(`a schedule has at most ${MAX_FAULTS} faults, got ${items.length}`);
  const faults = items.map((raw) => parseFault(raw.trim(), prompts));
  return { prompts, faults };
}

function parseFault(item: string, prompts: number): StressFault {
  const m = ITEM.exec(item);
  if (!m) throw new ScheduleError(`'${item}' is not ACTION@PROMPT[.request|.response][+MS]`);
  const action = m[1] as StressAction;
  if (!STRESS_ACTIONS.includes(action))
    throw new ScheduleError(`'${item}': unknown action '${m[1]}'; actions: ${STRESS_ACTIONS.join(", ")}`);
  const prompt = Number(m[2]);
  if (prompt < 1 || prompt > prompts)
    throw new ScheduleError(`'${item}': prompt ${prompt} is not one of the schedule's ${prompts} prompt(s)`);
  const points = pointsOf(action);
  let on: StressPoint | undefined;
  if (m[3] !== undefined) {
    if (!(points as readonly string[]).includes(m[3]))
      throw new ScheduleError(
        `'${item}': ${action} ${points.length === 0 ? "takes no .request/.response" : `hits ${points.map((p) => `.${p}`).join(" or ")}`}`,
      );
    on = m[3] as StressPoint;
  } else if (points.length > 0) on = points[points.length - 1];
  let ms: number | undefined;
  if (m[4] !== undefined) {
    if (!takesMs(action)) throw new ScheduleError(`'${item}': only delay and cancel take +MS`);
    ms = Number(m[4]);
    if (ms > MAX_MS) throw new ScheduleError(`'${item}': at most +${MAX_MS} ms`);
  } else if (takesMs(action)) ms = action === "delay" ? 500 : 0;
  return { action, prompt, ...(on ? { on } : {}), ...(ms !== undefined ? { ms } : {}) };
}
