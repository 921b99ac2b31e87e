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
 * says how its record shows that (`dropped` by a fault rule, the default; `tap`: consumed by the
 * tap itself, e.g. the answer to a replayed `initialize`; `inspector`: the answer to an inspector
 * retry). `recorded` runs right after the frame's
 * record is emitted, with its `seq`, before its bytes are written on (fault records and lifecycle
 * actions go there).
 */
export interface FrameFate {
  readonly forward: boolean;
  readonly mark?: "dropped" | "tap" | "inspector";
  readonly recorded?: (frameSeq: number) => void;
  /**
   * A held frame (a `delay` rule): it is recorded now, marked `held`, `recorded` runs now, and its
   * bytes go on only if `hold` resolves true (released); false means it is never delivered. Later
   * frames of that direction wait behind it, in order.
   */
  readonly hold?: Promise<boolean>;
  /**
   * With `forward: false`: forward these bytes instead, a copy of the frame with only its JSON-RPC
   * id changed (an inspector retry's answer, rewritten to the client's id). The copy gets its own
   * record (`origin: "inspector"`, `replaces`, `copyOf` the swallowed frame's seq).
   */
  readonly rewritten?: { readonly raw: string; readonly replaces: string | number };
}

/** What happens to a frame: forwarded as is, swallowed (recorded with `dropped: true`), or a `FrameFate`. */
export type FrameDecision = "forward" | "drop" | FrameFate;

/**
 * The seam for fault injection: decides each whole line's fate before it is recorded and
 * forwarded, and sees every one of them (so it can also keep books, e.g. which request a response
 * answers). Returning a promise delays the frame (and everything behind it in that direction:
 * order is kept). Oversize lines are streamed and never reach the policy.
 */
export interface FramePolicy {
  decide(frame: TapFrame): FrameDecision | Promise<FrameDecision>;
}

/** A policy that decides with `fn` (tests, simple hooks). */
export function framePolicy(fn: (frame: TapFrame) => FrameDecision | Promise<FrameDecision>): FramePolicy {
  return { decide: fn };
}
