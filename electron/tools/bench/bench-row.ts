/** One line of `npm run bench`: a measurement next to its baseline, taken side by side in the same run. */
export interface BenchRow {
  /** What was measured, e.g. "proxy throughput, 200k notifications of ~300 B". */
  readonly name: string;
  /** The measured figure with its unit, e.g. "412 MB/s". */
  readonly measured: string;
  /** The baseline figure with its unit, e.g. "455 MB/s direct pipe" (empty when the goal is absolute). */
  readonly baseline: string;
  /** measured / baseline (or the measured number itself when the goal is absolute), as the goal compares it. */
  readonly ratio: number;
  /** The goal in words, e.g. ">= 0.8 of direct". */
  readonly goal: string;
  /** Whether the goal was met in this run. */
  readonly met: boolean;
}

/** A benchmark module: runs its measurements and returns one row per figure. */
export type Bench = () => Promise<BenchRow[]>;
