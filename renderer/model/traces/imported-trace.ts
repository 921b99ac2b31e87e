/**
 * Whether the shown trace was converted from another tool's file (docs/interchange.md), and whether
 * its times are real; `kit/ImportedTrace.tsx` draws the banner and the clock from these.
 */

import { timesUnknown } from "../../../shared/trace/interchange/describe.js";
import type { ImportedFrom } from "../../../shared/trace/record.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";

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
