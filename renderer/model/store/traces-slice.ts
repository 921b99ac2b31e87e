/** The zustand slice of what the hub and imports brought: the traces, the one shown, and the armed fault rules. */
import type { StateCreator } from "zustand";
import type { ArmedFault } from "../../../shared/faults/armed-fault.js";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { EMPTY_VIEW, type TimelineView } from "../traces/timeline-view.js";
import type { TraceEntry } from "../traces/trace-catalog.js";
import { showTrace } from "./show-trace.js";
import type { ViewSlice } from "./view-slice.js";

/** An import in progress. */
export interface ImportProgress {
  readonly traceId: string;
  readonly fileName: string;
  readonly done: number;
  readonly total: number;
}

/** Trace state; changed by the feed pump once per animation frame and by the trace picker. */
export interface TracesSlice {
  /** Every trace, newest first. */
  readonly traces: readonly TraceEntry[];
  /** The trace on screen. */
  readonly traceId: string | undefined;
  /**
   * "Follow newest": on at start and off once the user picks a trace. While on, the newest live
   * tap is shown (the demo's trace while the demo plays a scenario).
   */
  readonly followNewest: boolean;
  /** The shown trace's timeline. */
  readonly view: TimelineView;
  /** The hub's armed fault rules. */
  readonly rules: readonly FaultRule[];
  /** The same with their target taps, acknowledgements and firings (the hub's board). */
  readonly faults: readonly ArmedFault[];
  /** Rules used up lately, newest first ("fired at ... on tap ..."). */
  readonly recentFaults: readonly ArmedFault[];
  /**
   * Hub ring gaps (events gone before this window got them) whose traces are not reloaded from the
   * hub's files: counted while the reload runs, and kept when it failed.
   */
  readonly gaps: number;
  /** True while the view is frozen (new events wait; the hub and its trace files keep recording). */
  readonly paused: boolean;
  /** Hub events waiting for Resume. */
  readonly held: number;
  readonly importing: ImportProgress | undefined;
  /** The user picked a trace: it is shown and "Follow newest" turns off. */
  selectTrace(id: string): void;
  /** Turns "Follow newest" on (jumping to the trace it follows) or off. */
  setFollowNewest(on: boolean): void;
  setPaused(paused: boolean): void;
}

/** Creates the traces slice; `onSelect`/`onPause` let the pump react (it owns the catalog). */
export const tracesSlice =
  (hooks: {
    viewOf(id: string): TimelineView | undefined;
    /** The trace "Follow newest" shows now. */
    followTarget(): string | undefined;
    onPauseChange(paused: boolean): void;
  }): StateCreator<TracesSlice & ViewSlice, [], [], TracesSlice> =>
  (set, get) => ({
    traces: [],
    traceId: undefined,
    followNewest: true,
    view: EMPTY_VIEW,
    rules: [],
    faults: [],
    recentFaults: [],
    gaps: 0,
    paused: false,
    held: 0,
    importing: undefined,
    selectTrace: (id) =>
      set({ ...showTrace(get().traceId, id, hooks.viewOf(id) ?? EMPTY_VIEW, get()), followNewest: false }),
    setFollowNewest: (on) => {
      if (!on) return set({ followNewest: false });
      const id = hooks.followTarget() ?? get().traceId;
      set({
        ...showTrace(
          get().traceId,
          id,
          (id === undefined ? undefined : hooks.viewOf(id)) ?? EMPTY_VIEW,
          get(),
        ),
        followNewest: true,
      });
    },
    setPaused: (paused) => {
      set({ paused });
      hooks.onPauseChange(paused);
    },
  });
