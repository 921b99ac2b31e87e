/**
 * The renderer's store: one zustand store built from per-domain slices. Components read it only
 * through `useInspector(selector)` with a narrow selector, never the whole state. The traces
 * themselves (records, analyzers) live in the `TraceCatalog` beside it; the store holds the
 * immutable views the components render.
 */
import { createContext, useContext } from "react";
import { createStore, type StoreApi, useStore } from "zustand";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { TraceCatalog } from "../traces/trace-catalog.js";
import { columnsSlice } from "./columns-slice.js";
import { conformanceSlice } from "./conformance-slice.js";
import { connectionSlice } from "./connection-slice.js";
import { demoSlice } from "./demo-slice.js";
import { createFeedPump, type FeedPump } from "./feed-pump.js";
import type { FrameBudget, RequestFrame } from "./frame-scheduler.js";
import type { InspectorState } from "./inspector-state.js";
import { followTarget } from "./show-trace.js";
import { tracesSlice } from "./traces-slice.js";
import { type ThemeName, viewSlice } from "./view-slice.js";

/** Everything the React tree gets from its root: the store, the traces, the pump and the bridge. */
export interface InspectorContextValue {
  readonly store: StoreApi<InspectorState>;
  readonly catalog: TraceCatalog;
  readonly pump: FeedPump;
  readonly bridge: InspectorBridge;
}

/** Creates the store, catalog and pump for one bridge (`budget`: see frame-scheduler.ts). */
export function createInspector(
  bridge: InspectorBridge,
  initial: { theme: ThemeName; largeText: boolean },
  requestFrame: RequestFrame,
  budget?: FrameBudget,
): InspectorContextValue {
  const catalog = new TraceCatalog();
  let pump: FeedPump | undefined;
  const store: StoreApi<InspectorState> = createStore<InspectorState>()((...a) => ({
    ...tracesSlice({
      viewOf: (id) => catalog.get(id)?.view,
      followTarget: (): string | undefined => followTarget(catalog, store.getState().demo),
      onPauseChange: (paused) => {
        if (!paused) pump?.resume();
      },
    })(...a),
    ...connectionSlice(bridge.shell)(...a),
    ...viewSlice(initial)(...a),
    ...demoSlice(...a),
    ...conformanceSlice(...a),
    ...columnsSlice(typeof window === "undefined" ? undefined : window.localStorage)(...a),
  }));
  pump = createFeedPump(catalog, store, requestFrame, bridge, undefined, budget);
  return { store, catalog, pump, bridge };
}

/** React context carrying the store, catalog, pump and bridge. */
export const InspectorContext = createContext<InspectorContextValue | undefined>(undefined);

/** The context value; throws outside the provider. */
export function useInspectorContext(): InspectorContextValue {
  const value = useContext(InspectorContext);
  if (!value) throw new Error("InspectorContext is missing: render inside <InspectorContext value={...}>");
  return value;
}

/** Selects one narrow piece of state; re-renders only when that piece changes. */
export function useInspector<T>(selector: (state: InspectorState) => T): T {
  return useStore(useInspectorContext().store, selector);
}

/** The bridge, for components that run operations. */
export function useBridge(): InspectorBridge {
  return useInspectorContext().bridge;
}
