/**
 * Opens a conformance case's trace in this window: fetched from the hub by its trace id, imported
 * through the same path as a dropped file (so it is analyzed and shown like any trace), and shown
 * in the timeline. A trace this window already opened is shown again instead of imported twice.
 */

import type { InspectorContextValue } from "../../model/store/inspector-store.js";
import { importTraceText } from "../../model/traces/import-trace.js";

/** Shows hub trace `hubTraceId` in the timeline, named `label`; resolves to the window's trace id. */
export async function openCaseTrace(
  ctx: InspectorContextValue,
  hubTraceId: string,
  label: string,
): Promise<string> {
  const state = ctx.store.getState();
  const known = state.openedCaseTraces[hubTraceId];
  if (known !== undefined && ctx.catalog.get(known)) {
    state.selectTrace(known);
    state.setTab("timeline");
    return known;
  }
  const { text } = await ctx.bridge.readTrace({ id: hubTraceId });
  const result = await importTraceText(ctx, label, text);
  const after = ctx.store.getState();
  after.noteOpenedCaseTrace(hubTraceId, result.traceId);
  after.setTab("timeline");
  return result.traceId;
}
