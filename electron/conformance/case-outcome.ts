/** How a case ends early: a failed check, a skip that names why the case cannot apply, or a timed-out wait. */

/** A check failed: the message is the case's one-line reason. */
export class CaseFailure extends Error {}

/** The case cannot apply to this agent or setup: the message says why. */
export class CaseSkip extends Error {}

/** A bounded wait ran out: the message names what the case was waiting for. */
export class CaseTimeout extends CaseFailure {}

/** Throws a `CaseFailure` with `reason` unless `condition` holds. */
export function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CaseFailure(reason);
}

/** Ends the case as skipped with `reason`. */
export function skip(reason: string): never {
  throw new CaseSkip(reason);
}
