/**
 * The schema check of a trace imported into this window (no hub holds it): the same check as the
 * CLI's `validate` and the hub's `checkSchema` (electron/schema/trace-schema-check.ts, with the
 * validators generated at build time, so nothing is compiled under the page's CSP), loaded as a
 * lazy chunk on first use so the first paint does not pay for it.
 */
import type { FrameSchemaReport } from "../../../shared/schema/schema-report.js";
import type { TraceRecord } from "../../../shared/trace/record.js";

/** Records checked between two looks at the clock. */
const SLICE = 250;
/** The longest one slice of the check runs, in the page's idle time or, without idle callbacks, between tasks. */
const SLICE_MS = 8;

/**
 * Waits for the page to be idle and resolves to how long the check may run: the check runs in the
 * page's idle time, so a search, a scroll or a live update never waits behind it.
 */
function idleSlice(): Promise<number> {
  const g = globalThis as { requestIdleCallback?: (cb: (d: { timeRemaining(): number }) => void) => number };
  if (typeof g.requestIdleCallback !== "function")
    return new Promise((resolve) => setTimeout(() => resolve(SLICE_MS), 0));
  // An idle period may offer up to 50 ms; a keystroke in it would wait that long, so take at most SLICE_MS.
  return new Promise((resolve) =>
    g.requestIdleCallback?.((d) => resolve(Math.min(SLICE_MS, Math.max(1, d.timeRemaining())))),
  );
}

type SchemaCheck = InstanceType<
  typeof import("../../../electron/schema/trace-schema-check.js")["TraceSchemaCheck"]
>;

/**
 * One imported trace's check, fed only the records it has not seen yet: a trace that grows while it
 * is imported is checked once in all, not again from its first record every few seconds (the check
 * is a fold over the records in seq order, so feeding them in parts gives the same reports).
 */
export class GrowingSchemaCheck {
  private check: SchemaCheck | undefined;
  private next = 0;
  private firstSeq: number | undefined;
  /** Records fed to the check since it was made (for tests: a growing trace costs one pass). */
  ingested = 0;

  /**
   * Feeds the records past the last call (all of them when the trace no longer starts where it did,
   * e.g. after a Clear) and resolves to every report so far; null when `stillWanted` turns false
   * between slices (what was fed stays fed).
   */
  async checkNew(
    records: readonly TraceRecord[],
    stillWanted: () => boolean,
  ): Promise<FrameSchemaReport[] | null> {
    const { TraceSchemaCheck } = await import("../../../electron/schema/trace-schema-check.js");
    if (this.check === undefined || records[0]?.seq !== this.firstSeq || records.length < this.next) {
      this.check = new TraceSchemaCheck();
      this.next = 0;
      this.firstSeq = records[0]?.seq;
    }
    const check = this.check;
    const end = records.length;
    while (this.next < end) {
      const budget = await idleSlice();
      if (!stillWanted()) return null;
      const started = performance.now();
      while (this.next < end && performance.now() - started < budget) {
        const stop = Math.min(end, this.next + SLICE);
        this.ingested += stop - this.next;
        for (; this.next < stop; this.next++) check.ingest(records[this.next] as TraceRecord);
      }
    }
    return [...check.reports];
  }
}

/**
 * Checks `records` (in seq order) and resolves to the frames that break the schema or carry
 * extension fields; resolves to null when `stillWanted` turns false between slices.
 */
export async function checkRecordsInPage(
  records: readonly TraceRecord[],
  stillWanted: () => boolean,
): Promise<FrameSchemaReport[] | null> {
  return new GrowingSchemaCheck().checkNew(records, stillWanted);
}
