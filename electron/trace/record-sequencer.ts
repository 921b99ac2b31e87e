/**
 * Stamps trace records with `seq` and `ts`. One sequencer per trace file, shared by every
 * direction and lifecycle event of the tap, so `seq` order is the order records were produced.
 */
export class RecordSequencer {
  private seq = 0;
  private readonly anchor = Date.now();
  private readonly origin = performance.now();

  /** The next `seq` (1, 2, 3, ...). */
  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** Epoch milliseconds with a microsecond fraction, from the monotonic clock anchored at construction. */
  now(): number {
    return Math.round((this.anchor + (performance.now() - this.origin)) * 1000) / 1000;
  }

  /** The last `seq` handed out (0 before the first). */
  get last(): number {
    return this.seq;
  }
}
