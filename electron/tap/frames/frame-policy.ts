import type { Frame } from "../../../shared/protocol/frame.js";
import type { Direction } from "../../../shared/trace/record.js";

/** One whole line the tap is about to forward. */
export interface TapFrame {
  readonly conn: number;
  readonly dir: Direction;
  /** The exact bytes, including the terminating `\n` when there is one. */
  readonly bytes: Buffer;
  /** The text of the line when it is valid UTF-8 (without the `\n`), else `null`. */
  readonly text: string | null;
  /** The line classified as JSON-RPC (parsed once by the tap), `null` when it is not UTF-8. */
  readonly frame: Frame | null;
}

/**
 * A frame's fate with more detail than forward/drop. `forward: false` swallows the frame; `mark`
 * says how its record shows that (`dropped` by a fault rule, the default, or `tap`: consumed by the
 * tap itself, e.g. the answer to a replayed `initialize`). `recorded` runs right after the frame's
 * record is emitted, with its `seq`, before its bytes are written on (fault records and lifecycle
 * actions go there).
 */
export interface FrameFate {
  readonly forward: boolean;
  readonly mark?: "dropped" | "tap";
  readonly recorded?: (frameSeq: number) => void;
}

/** What happens to a frame: forwarded as is, swallowed (recorded with `dropped: true`), or a `FrameFate`. */
export type FrameDecision = "forward" | "drop" | FrameFate;

/**
 * The seam for fault injection: decides each frame's fate before it is recorded and forwarded.
 * Returning a promise delays the frame (and everything behind it in that direction: order is
 * kept). Oversize lines are streamed and never reach the policy. While `active()` is false the
 * tap forwards on its fast path and only shows each frame to `observe` (bookkeeping, no decision).
 */
export interface FramePolicy {
  /** False while no rule can fire: frames go through the fast path, synchronously. */
  active(): boolean;
  /** Sees every frame the fast path forwards (e.g. to remember which request a response answers). */
  observe?(frame: TapFrame): void;
  /** Decides one frame's fate (only called while `active()`). */
  decide(frame: TapFrame): FrameDecision | Promise<FrameDecision>;
}

/** A policy that is always active and decides with `fn` (tests, simple hooks). */
export function framePolicy(fn: (frame: TapFrame) => FrameDecision | Promise<FrameDecision>): FramePolicy {
  return { active: () => true, decide: fn };
}
