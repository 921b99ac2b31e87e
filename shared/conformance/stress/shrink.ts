/**
 * Shrinks a failing stress schedule to a small one that still fails (delta debugging): first it
 * removes faults (halves, then quarters, ... then single faults, ddmin), then it simplifies the
 * points of those left (an earlier prompt, a request instead of a response, a shorter wait) and
 * drops prompts no fault needs. Every candidate is tried with `fails`, which runs it for real;
 * the result is the last schedule seen failing, so a flaky failure never shrinks to a pass. A
 * candidate only counts as failing when it keeps the failure the shrink started from (`keeps`;
 * for stress runs `keepsFailure`: the same invariant broken on the same prompt's key), so the
 * shrink never drifts to another failure (say, a `-32002` the RFD allows) on the way.
 */

import type { InvariantViolation } from "./invariants.js";
import type { StressFault, StressSchedule } from "./schedule.js";
import { pointsOf, printSchedule } from "./schedule.js";

/** What the shrinker reports. */
export interface ShrinkResult<E> {
  /** The smallest schedule seen failing. */
  readonly schedule: StressSchedule;
  /** What `fails` returned for it (its evidence, e.g. the run's violations and trace). */
  readonly evidence: E;
  /** Candidates tried. */
  readonly tries: number;
  /** True when it stopped at `maxTries` before it was done. */
  readonly cut: boolean;
}

/** Runs a candidate: evidence when it failed, undefined when it passed. */
export type FailureProbe<E> = (schedule: StressSchedule) => Promise<E | undefined>;

/** The role of a stress key in its schedule: the prompt it belongs to (`p2` of `stress-<nonce>-p2`), else the key itself. */
export function keyRole(key: string): string {
  return /-(p\d+)$/.exec(key)?.[1] ?? key;
}

/** A run's failure as `invariant@role` pairs (empty: it failed without a broken invariant, e.g. it could not run). */
export function failureSignature(violations: readonly InvariantViolation[]): string[] {
  return [...new Set(violations.map((v) => `${v.invariant}@${keyRole(v.key)}`))].sort();
}

/**
 * Whether a candidate's violations keep the starting failure: the first invariant it broke, on the
 * same prompt's key; for a start without violations, a candidate that failed without any too.
 */
export function keepsFailure(
  start: readonly InvariantViolation[],
  candidate: readonly InvariantViolation[],
): boolean {
  const first = start[0];
  if (!first) return candidate.length === 0;
  return failureSignature(candidate).includes(`${first.invariant}@${keyRole(first.key)}`);
}

/**
 * Shrinks `start` (known to fail with `evidence`) with at most `maxTries` runs of `fails`; a
 * candidate's evidence counts only when `keeps(evidence, its evidence)` (default: any failure).
 */
export async function shrinkSchedule<E>(
  start: StressSchedule,
  evidence: E,
  fails: FailureProbe<E>,
  maxTries = 40,
  keeps: (start: E, candidate: E) => boolean = () => true,
): Promise<ShrinkResult<E>> {
  let best = start;
  let bestEvidence = evidence;
  let tries = 0;
  const seen = new Set<string>([printSchedule(start)]);
  const attempt = async (candidate: StressSchedule): Promise<boolean> => {
    const text = printSchedule(candidate);
    if (seen.has(text) || tries >= maxTries) return false;
    seen.add(text);
    tries++;
    const got = await fails(candidate);
    if (got === undefined || !keeps(evidence, got)) return false;
    best = candidate;
    bestEvidence = got;
    return true;
  };

  // 1. ddmin over the faults: try removing chunks, finer and finer.
  let n = 2;
  while (best.faults.length > 0 && tries < maxTries) {
    const faults = best.faults;
    const size = Math.ceil(faults.length / n);
    let removed = false;
    for (let at = 0; at < faults.length; at += size) {
      const rest = [...faults.slice(0, at), ...faults.slice(at + size)];
      if (await attempt({ ...best, faults: rest })) {
        removed = true;
        break;
      }
    }
    if (removed) n = Math.max(2, n - 1);
    else if (size <= 1) break;
    else n = Math.min(faults.length, n * 2);
  }

  // 2. Simplify each fault's point, then drop prompts no fault needs.
  let changed = true;
  while (changed && tries < maxTries) {
    changed = false;
    for (let i = 0; i < best.faults.length; i++) {
      for (const simpler of simplerFaults(best.faults[i] as StressFault)) {
        const faults = best.faults.map((f, j) => (j === i ? simpler : f));
        if (await attempt({ ...best, faults })) {
          changed = true;
          break;
        }
      }
    }
    const needed = Math.max(1, ...best.faults.map((f) => f.prompt));
    for (let prompts = needed; prompts < best.prompts; prompts++) {
      if (await attempt({ ...best, prompts })) {
        changed = true;
        break;
      }
    }
  }
  return { schedule: best, evidence: bestEvidence, tries, cut: tries >= maxTries };
}

/** Simpler versions of one fault, simplest first: prompt 1, then the request, then no or a shorter wait. */
export function simplerFaults(fault: StressFault): StressFault[] {
  const out: StressFault[] = [];
  if (fault.prompt > 1) out.push({ ...fault, prompt: 1 });
  if (fault.prompt > 2) out.push({ ...fault, prompt: fault.prompt - 1 });
  if (fault.on === "response" && pointsOf(fault.action).includes("request"))
    out.push({ ...fault, on: "request" });
  if (fault.ms !== undefined && fault.ms > 0) {
    const floor = fault.action === "delay" ? 50 : 0;
    if (fault.ms > floor) out.push({ ...fault, ms: floor });
    const half = Math.floor(fault.ms / 2);
    if (half > floor) out.push({ ...fault, ms: half });
  }
  return out;
}
