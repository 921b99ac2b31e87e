/**
 * What the UI says about a trace converted from another tool's file (docs/interchange.md): a banner
 * naming the source format and what it lacks, and clock times shown as unknown when the source had
 * none (its `ts` values only keep the order).
 */

import { describeImport, timesUnknown } from "../../shared/trace/interchange/describe.js";
import type { ImportedFrom } from "../../shared/trace/record.js";
import { visibleText } from "../components/visible-text.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import { clockTime } from "../timeline/clock-time.js";

/** The shown trace's `imported` header field, when it was converted from another format. */
export function useShownImport(): ImportedFrom | undefined {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  return traceId === undefined ? undefined : catalog.get(traceId)?.header?.imported;
}

/** True when the shown trace's times are synthetic (order only). */
export function useTimesUnknown(): boolean {
  return timesUnknown(useShownImport());
}

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
