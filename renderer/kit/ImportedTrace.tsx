/**
 * What the UI says about a trace converted from another tool's file (docs/interchange.md): a banner
 * naming the source format and what it lacks, and clock times shown as unknown when the source had
 * none (its `ts` values only keep the order).
 */

import { describeImport } from "../../shared/trace/interchange/describe.js";
import { clockTime } from "../model/text/clock-time.js";
import { visibleText } from "../model/text/visible-text.js";
import { useShownImport, useTimesUnknown } from "../model/traces/imported-trace.js";

/** A record's clock time, or `unknown` (default "time unknown") when the shown trace has no real times. */
export function Clock({ ts, unknown = "time unknown" }: { ts: number; unknown?: string }) {
  return useTimesUnknown() ? <span className="muted">{unknown}</span> : clockTime(ts);
}

/** The banner above the views of an imported trace. */
export function ImportBanner() {
  const imported = useShownImport();
  if (!imported) return null;
  return (
    <div className="import-banner" role="note" aria-label="Imported trace">
      {visibleText(describeImport(imported))}
    </div>
  );
}
