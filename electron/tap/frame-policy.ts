import type { Direction } from "../../shared/trace/record.js";

/** One whole line the tap is about to forward. */
export interface TapFrame {
  readonly conn: number;
  readonly dir: Direction;
  /** The exact bytes, including the terminating `\n` when there is one. */
  readonly bytes: Buffer;
  /** The text of the line when it is valid UTF-8 (without the `\n`), else `null`. */
  readonly text: string | null;
}

/** What happens to a frame: forwarded as is, or swallowed (recorded with `dropped: true`). */
export type FrameDecision = "forward" | "drop";

/**
 * The seam for fault injection: decides each frame's fate before it is recorded and forwarded.
 * Returning a promise delays the frame (and everything behind it in that direction: order is
 * kept). Oversize lines are streamed and never reach the policy. Without a policy the tap
 * forwards everything on its fast path.
 */
export type FramePolicy = (frame: TapFrame) => FrameDecision | Promise<FrameDecision>;
