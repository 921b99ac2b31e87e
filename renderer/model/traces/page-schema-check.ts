/**
 * The schema check of a trace imported into this window (no hub holds it): the same check as the
 * CLI's `validate` and the hub's `checkSchema` (electron/schema/trace-schema-check.ts, with the
 * validators generated at build time, so nothing is compiled under the page's CSP), loaded as a
 * lazy chunk on first use so the first paint does not pay for it.
 */
import type { FrameSchemaReport } from "../../../shared/schema/schema-report.js";
import type { TraceRecord } from "../../../shared/trace/record.js";

/** Records checked between two yields to the event loop (a large import keeps the page responsive). */
const SLICE = 2000;

/**
 * Checks `records` (in seq order) and resolves to the frames that break the schema or carry
 * extension fields; resolves to null when `stillWanted` turns false between slices.
 */
export async function checkRecordsInPage(
  records: readonly TraceRecord[],
  stillWanted: () => boolean,
): Promise<FrameSchemaReport[] | null> {
  const { TraceSchemaCheck } = await import("../../../electron/schema/trace-schema-check.js");
  const check = new TraceSchemaCheck();
  const end = records.length;
  for (let i = 0; i < end; i += SLICE) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    if (!stillWanted()) return null;
    for (let j = i; j < Math.min(end, i + SLICE); j++) check.ingest(records[j] as TraceRecord);
  }
  return check.reports;
}
