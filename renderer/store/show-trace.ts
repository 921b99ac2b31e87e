/**
 * Which trace is on screen, and what changes with it. "Follow newest" shows the demo's trace while
 * it plays a scenario and the newest live tap otherwise; putting another trace on screen (picked,
 * or followed) clears the filters, the selection and the open rows, which belonged to the trace
 * shown before (a filter carried over could hide every row of the new one).
 */
import type { DemoStatus } from "../../shared/demo/demo-wire.js";
import { NO_FILTER } from "../timeline/timeline-filter.js";
import type { TimelineView } from "../traces/timeline-view.js";
import type { TraceCatalog } from "../traces/trace-catalog.js";
import type { ViewSlice } from "./view-slice.js";

/** The state a switch of the shown trace changes. */
export type ShownTrace = { readonly traceId: string | undefined; readonly view: TimelineView } & Pick<
  ViewSlice,
  "filter" | "selected" | "expanded"
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

/** The state change that shows trace `id` with `view`; nothing but the view when it is already shown. */
export function showTrace(
  shownId: string | undefined,
  id: string | undefined,
  view: TimelineView,
): Partial<ShownTrace> {
  if (id === shownId) return { view };
  return { traceId: id, view, filter: NO_FILTER, selected: undefined, expanded: new Set() };
}
