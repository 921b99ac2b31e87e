/**
 * Which trace is on screen, and what changes with it. "Follow newest" shows the demo's trace while
 * it plays a scenario and the newest live tap otherwise; putting another trace on screen (picked,
 * or followed) clears the filters and the selection, which belonged to the trace shown before (a
 * filter carried over could hide every row of the new one); the open rows are kept per trace.
 */
import type { DemoStatus } from "../../../shared/demo/demo-wire.js";
import { NO_FILTER } from "../filter/timeline-filter.js";
import type { TimelineView } from "../traces/timeline-view.js";
import type { TraceCatalog } from "../traces/trace-catalog.js";
import type { ViewSlice } from "./view-slice.js";

/** The state a switch of the shown trace changes. */
export type ShownTrace = { readonly traceId: string | undefined; readonly view: TimelineView } & Pick<
  ViewSlice,
  "filter" | "selected" | "expanded" | "expandedByTrace"
>;

/**
 * The trace "Follow newest" shows now: the newest live tap; but while the demo has a scenario on
 * screen, or is starting its next tap, the demo's trace, and undefined (stay where you are) while
 * that trace is not known yet, so no other tap flashes up between a Play and the demo's new tap.
 */
export function followTarget(catalog: TraceCatalog, demo: DemoStatus | undefined): string | undefined {
  if (demo && (demo.scenario || demo.state === "starting")) {
    return demo.traceId !== null && catalog.get(demo.traceId) ? demo.traceId : undefined;
  }
  return catalog.newestLive()?.id;
}

/**
 * The state change that shows trace `id` with `view`; nothing but the view when it is already shown.
 * The open rows are kept per trace (`open`: the current ones and those kept): the trace shown
 * before keeps its own, and one shown again gets its own back, so a "Follow newest" switch and
 * back does not close a submission the user opened.
 */
export function showTrace(
  shownId: string | undefined,
  id: string | undefined,
  view: TimelineView,
  open?: Pick<ViewSlice, "expanded" | "expandedByTrace">,
): Partial<ShownTrace> {
  if (id === shownId) return { view };
  const kept = new Map(open?.expandedByTrace);
  if (shownId !== undefined && open && open.expanded.size > 0) kept.set(shownId, open.expanded);
  else if (shownId !== undefined) kept.delete(shownId);
  const expanded = (id === undefined ? undefined : kept.get(id)) ?? new Set<string>();
  if (id !== undefined) kept.delete(id);
  return { traceId: id, view, filter: NO_FILTER, selected: undefined, expanded, expandedByTrace: kept };
}
