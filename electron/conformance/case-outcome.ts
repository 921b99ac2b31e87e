/**
 * How a case ends early: a failed check, a skip that names why the case cannot apply, or a
 * timed-out wait. A failure can name the requirement it breaks and the frames that broke it (by
 * connection and JSON-RPC id, or by the messageId of an update); the runner finds those frames in
 * the case's trace and puts their `seq` in the reason.
 */

/** A frame the suite can name before the trace is written: a request (and its answer) or the updates of a message. */
export type FrameRef =
  | { readonly conn: number; readonly id: number | string }
  | { readonly conn: number; readonly messageId: string };

/** What a failure points at. */
export interface FailureEvidence {
  /** The requirement id broken (default: the case's main requirement). */
  readonly requirement?: string;
  readonly frames?: readonly FrameRef[];
}

/** A check failed: the message is the case's one-line reason. */
export class CaseFailure extends Error {
  constructor(
    message: string,
    readonly evidence: FailureEvidence = {},
  ) {
    super(message);
  }
}

/** The case cannot apply to this agent or setup: the message says why. */
export class CaseSkip extends Error {}

/** A bounded wait ran out: the message names what the case was waiting for. */
export class CaseTimeout extends CaseFailure {}

/** Throws a `CaseFailure` with `reason` (and `evidence`) unless `condition` holds. */
export function check(condition: unknown, reason: string, evidence?: FailureEvidence): asserts condition {
  if (!condition) throw new CaseFailure(reason, evidence);
}

/** Ends the case as skipped with `reason`. */
export function skip(reason: string): never {
  throw new CaseSkip(reason);
}

/** The request `id` sent on connection `conn`, with its answer. */
export function request(conn: number, id: number | string): FrameRef {
  return { conn, id };
}

/** `work`, with its failure (if any, and if it names none) blamed on `requirement`. */
export async function blaming<T>(requirement: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof CaseFailure) || err.evidence.requirement !== undefined) throw err;
    const evidence = { ...err.evidence, requirement };
    throw err instanceof CaseTimeout
      ? new CaseTimeout(err.message, evidence)
      : new CaseFailure(err.message, evidence);
  }
}
