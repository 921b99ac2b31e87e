/**
 * Moves everything that arrives (hub messages, imported records) into the traces and the store:
 * items are queued, and once per animation frame they are applied in order, each touched trace
 * publishes its changed rows (`takeChanges()`), and the store gets one `set()`.
 */
import type { HubEvent } from "../../shared/hub/hub-event.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import type { TraceRecord } from "../../shared/trace/record.js";
import type { TraceCatalog } from "../traces/trace-catalog.js";
import type { TraceSession } from "../traces/trace-session.js";
import { createFrameScheduler, type RequestFrame } from "./frame-scheduler.js";
import type { InspectorState } from "./inspector-store.js";
import type { ImportProgress } from "./traces-slice.js";

/** One queued item. */
export type PumpItem =
  | { readonly kind: "hub"; readonly message: HubToUi }
  | {
      readonly kind: "import";
      readonly traceId: string;
      readonly records: readonly TraceRecord[];
      readonly progress: ImportProgress | undefined;
    }
  | { readonly kind: "touch"; readonly traceId: string };

/** The pump: `push` queues an item; `resume` releases events held while paused. */
export interface FeedPump {
  push(item: PumpItem): void;
  resume(): void;
}

/** The store surface the pump needs (a zustand store's getState/setState). */
export interface PumpStore {
  getState(): InspectorState;
  setState(patch: Partial<InspectorState>): void;
}

/** Creates the pump over a catalog and a store. */
export function createFeedPump(
  catalog: TraceCatalog,
  store: PumpStore,
  requestFrame: RequestFrame,
): FeedPump {
  let held: PumpItem[] = [];
  let heldEvents = 0;

  function flush(items: PumpItem[]): void {
    const state = store.getState();
    const touched = new Set<TraceSession>();
    const patch: { -readonly [K in keyof InspectorState]?: InspectorState[K] } = {};
    let gaps = state.gaps;
    for (const item of items) {
      if (item.kind === "touch") {
        const s = catalog.get(item.traceId);
        if (s) touched.add(s);
      } else if (item.kind === "import") {
        const s = catalog.get(item.traceId);
        if (!s) continue;
        for (const r of item.records) s.ingest(r);
        touched.add(s);
        patch.importing = item.progress;
      } else {
        const m = item.message;
        if (m.t === "events") {
          if (store.getState().paused) {
            held.push(item);
            heldEvents += m.events.length;
            patch.held = heldEvents;
            continue;
          }
          for (const s of catalog.applyHubEvents(m.events as readonly HubEvent[])) touched.add(s);
        } else if (m.t === "fault-rules") {
          patch.rules = m.rules;
        } else if (m.t === "demo-status") {
          patch.demo = m.status;
        } else if (m.t === "conformance-status") {
          patch.conformance = m.board;
        } else if (m.t === "gap") {
          gaps++;
        } else if (m.t === "error") {
          patch.notice = { tone: "error", text: `The hub reported: ${m.message}` };
        }
      }
    }
    for (const s of touched) s.publish();
    let traceId = state.traceId;
    if (state.followNewest) traceId = catalog.newestLive()?.id ?? traceId;
    if (touched.size > 0 || traceId !== state.traceId) patch.traces = catalog.entries();
    if (traceId !== state.traceId) patch.traceId = traceId;
    const shown = traceId === undefined ? undefined : catalog.get(traceId);
    if (shown && shown.view !== state.view) patch.view = shown.view;
    if (gaps !== state.gaps) patch.gaps = gaps;
    if (Object.keys(patch).length > 0) store.setState(patch);
  }

  const push = createFrameScheduler(flush, requestFrame);
  return {
    push,
    resume() {
      const items = held;
      held = [];
      heldEvents = 0;
      store.setState({ held: 0 });
      for (const item of items) push(item);
      // Even with nothing held, a flush re-shows the trace (a pause may have hidden a selection).
      if (items.length === 0) push({ kind: "touch", traceId: store.getState().traceId ?? "" });
    },
  };
}
