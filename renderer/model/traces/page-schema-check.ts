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

/** After a keystroke, a click or a scroll, the check waits this long before its next slice. */
const QUIET_MS = 400;

/** When the user last typed, clicked or scrolled (performance.now()), watched once the first check starts. */
let lastInput = Number.NEGATIVE_INFINITY;
let watching = false;

/** Starts noting the user's input, where the page has events (not in tests under Node). */
function watchInput(): void {
  const g = globalThis as { addEventListener?: (type: string, cb: () => void, opts: object) => void };
  if (watching || typeof g.addEventListener !== "function") return;
  watching = true;
  const note = () => {
    lastInput = performance.now();
  };
  for (const type of ["keydown", "input", "pointerdown", "wheel"])
    g.addEventListener(type, note, { capture: true, passive: true });
}

/**
 * Waits for the page to be idle and resolves to how long the check may run: the check runs in the
 * page's idle time and steps aside while the user types, clicks or scrolls, so a search, a scroll
 * or a live update never waits behind it.
 */
async function idleSlice(): Promise<number> {
  watchInput();
  for (let quiet = performance.now() - lastInput; quiet < QUIET_MS; quiet = performance.now() - lastInput)
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS - quiet));
  const g = globalThis as { requestIdleCallback?: (cb: (d: { timeRemaining(): number }) => void) => number };
  if (typeof g.requestIdleCallback !== "function")
    return new Promise((resolve) => setTimeout(() => resolve(SLICE_MS), 0));
  // An idle period may offer up to 50 ms; a keystroke in it would wait that long, so take at most SLICE_MS.
  return new Promise((resolve) =>
    g.requestIdleCallback?.((d) => resolve(Math.min(SLICE_MS, Math.max(1, d.timeRemaining())))),
  );
}

type SchemaCheckModule = typeof import("../../../electron/schema/trace-schema-check.js");
type SchemaCheck = InstanceType<SchemaCheckModule["TraceSchemaCheck"]>;

let loading: Promise<SchemaCheckModule> | undefined;

/**
 * Loads the check's lazy chunk (once; again after a failure). Called as soon as an import starts, so
 * the chunk is fetched while the server that served the page is still there, not only when the check runs.
 */
export function loadSchemaCheck(): Promise<SchemaCheckModule> {
  loading ??= import("../../../electron/schema/trace-schema-check.js").catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

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
    const { TraceSchemaCheck } = await loadSchemaCheck();
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
