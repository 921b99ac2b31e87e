/**
 * Moves everything that arrives (hub messages, imported records) into the traces and the store:
 * items are queued, and once per animation frame they are applied in order, each touched trace
 * publishes its changed rows (`takeChanges()`), and the store gets one `set()`. A hub `gap` starts
 * reloading the traces it can have touched from the hub's files (`gap-reload.ts`); the rebuilt
 * sessions come back as a `reloaded` item and replace the window's ones in order with live events.
 */
import type { HubEvent } from "../../../shared/hub/hub-event.js";
import type { HubToUi } from "../../../shared/hub/ui-wire.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import type { InvalidRecord } from "../../../shared/trace/record-check.js";
import type { LoadedTrace } from "../traces/loaded-trace.js";
import { EMPTY_VIEW } from "../traces/timeline-view.js";
import type { TraceCatalog } from "../traces/trace-catalog.js";
import {
  missedEvents,
  PendingReloads,
  type ReloadFailure,
  reloadingNotice,
  reloadNotice,
  reloadTargets,
} from "../traces/trace-reload.js";
import { createFrameScheduler, type FrameBudget, type RequestFrame } from "./frame-scheduler.js";
import { type ReloadBatch, reloadTraces, type TraceFiles } from "./gap-reload.js";
import type { InspectorState } from "./inspector-state.js";
import { followTarget, showTrace } from "./show-trace.js";
import type { ImportProgress } from "./traces-slice.js";

/** One queued item. */
export type PumpItem =
  | { readonly kind: "hub"; readonly message: HubToUi }
  | {
      readonly kind: "import";
      readonly traceId: string;
      /**
       * The file's records in line order, each line that is not a valid record as its flagged entry
       * (`decodeLines`' entries: checked already, so the trace does not check them again).
       */
      readonly records: readonly (TraceRecord | InvalidRecord)[];
      readonly progress: ImportProgress | undefined;
      /**
       * False: ingest the records but leave the trace's rows and the progress bar as published (a
       * large file's import publishes now and then, not every frame); its last item always publishes.
       */
      readonly publish?: boolean;
      /** With `publish` false: the progress bar moves to `progress` (the rows stay as published). */
      readonly progressOnly?: boolean;
    }
  | { readonly kind: "touch"; readonly traceId: string }
  /** Traces rebuilt from the hub's files after a gap, ready to replace the window's sessions. */
  | { readonly kind: "reloaded"; readonly batch: ReloadBatch };

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

/** Lets the window paint before the next chunk of a file is analyzed. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Only live events wait out a frame budget's rest (`createFrameScheduler`): an import's records, a
 * reload, a fault or demo status and an error flush on the next frame.
 */
const urgent = (item: PumpItem) => !(item.kind === "hub" && item.message.t === "events");

/**
 * Creates the pump over a catalog and a store; `files` (the bridge) lets it reload traces after a
 * gap; with `budget`, live events flush less often while the window is saturated (frame-scheduler.ts).
 */
export function createFeedPump(
  catalog: TraceCatalog,
  store: PumpStore,
  requestFrame: RequestFrame,
  files?: TraceFiles,
  pause: () => Promise<void> = nextTask,
  budget?: FrameBudget,
): FeedPump {
  let held: PumpItem[] = [];
  let heldEvents = 0;
  const pending = new PendingReloads();

  /** Starts reloading the traces a gap can have touched; returns how many there are. */
  function startReload(gap: Extract<HubToUi, { t: "gap" }>): number {
    const ids = reloadTargets(gap, catalog);
    if (ids.length === 0 || !files) return ids.length;
    const gen = pending.begin(ids);
    const ctx = { files, pending, current: (id: string) => catalog.get(id), pause };
    void reloadTraces(ctx, ids, gen, missedEvents(gap)).then((batch) => push({ kind: "reloaded", batch }));
    return ids.length;
  }

  /** Swaps the rebuilt sessions in; returns the ones now shown, the notice, and whether the gap is recovered. */
  function finishReload(batch: ReloadBatch) {
    const swapped: LoadedTrace[] = [];
    const failures: ReloadFailure[] = batch.failed.filter((f) => pending.drop(f.traceId, batch.gen));
    for (const r of batch.reloaded) {
      const fresh = pending.finish(r.traceId, batch.gen, r.loaded, catalog.get(r.traceId), r.attached);
      if (!fresh) continue;
      catalog.replace(fresh);
      swapped.push(fresh);
    }
    return {
      swapped,
      notice: reloadNotice(batch.missed, swapped.length, failures),
      recovered: failures.length === 0,
    };
  }

  function flush(items: PumpItem[]): void {
    const state = store.getState();
    const touched = new Set<LoadedTrace>();
    const patch: { -readonly [K in keyof InspectorState]?: InspectorState[K] } = {};
    let gaps = state.gaps;
    for (const item of items) {
      if (item.kind === "touch") {
        const s = catalog.get(item.traceId);
        if (s) touched.add(s);
      } else if (item.kind === "reloaded") {
        if (store.getState().paused) {
          held.push(item);
          continue;
        }
        const done = finishReload(item.batch);
        for (const s of done.swapped) touched.add(s);
        if (done.notice) patch.notice = done.notice;
        if (done.recovered) gaps = Math.max(0, gaps - 1);
      } else if (item.kind === "import") {
        const s = catalog.get(item.traceId);
        if (!s) continue;
        // Decoded by `decodeLines`, which checked each record: not checked again.
        for (const r of item.records) s.ingest(r, true);
        // Unpublished items leave the rows as published, and the progress bar too unless they move it.
        if (item.publish === false) {
          if (item.progressOnly && item.progress) patch.importing = item.progress;
          continue;
        }
        touched.add(s);
        patch.importing = item.progress;
        if (item.progress === undefined) s.endImport();
      } else {
        const m = item.message;
        if (m.t === "events") {
          if (store.getState().paused) {
            held.push(item);
            heldEvents += m.events.length;
            patch.held = heldEvents;
            continue;
          }
          pending.note(m.events as readonly HubEvent[]);
          for (const s of catalog.applyHubEvents(m.events as readonly HubEvent[])) touched.add(s);
        } else if (m.t === "fault-rules") {
          patch.rules = m.rules;
          patch.faults = m.faults ?? [];
          patch.recentFaults = m.recent ?? [];
        } else if (m.t === "demo-status") {
          patch.demo = m.status;
        } else if (m.t === "conformance-status") {
          patch.conformance = m.board;
        } else if (m.t === "gap") {
          // Held like events: while paused the reload waits too, so it never lands behind held events.
          if (store.getState().paused) {
            held.push(item);
            continue;
          }
          const traces = startReload(m);
          if (traces > 0) {
            gaps++;
            if (files) patch.notice = reloadingNotice(missedEvents(m), traces);
          }
        } else if (m.t === "error") {
          patch.notice = { tone: "error", text: `The hub reported: ${m.message}` };
        }
      }
    }
    for (const s of touched) s.publish();
    let traceId = state.traceId;
    if (state.followNewest) traceId = followTarget(catalog, patch.demo ?? state.demo) ?? traceId;
    if (touched.size > 0 || traceId !== state.traceId) patch.traces = catalog.entries();
    const shown = traceId === undefined ? undefined : catalog.get(traceId);
    if (traceId !== state.traceId)
      Object.assign(patch, showTrace(state.traceId, traceId, shown?.view ?? EMPTY_VIEW, state));
    else if (shown && shown.view !== state.view) patch.view = shown.view;
    if (gaps !== state.gaps) patch.gaps = gaps;
    if (Object.keys(patch).length > 0) store.setState(patch);
  }

  const push = createFrameScheduler(flush, requestFrame, budget, urgent);
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
