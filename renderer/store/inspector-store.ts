/**
 * The renderer's store: one zustand store built from per-domain slices. Components read it only
 * through `useInspector(selector)` with a narrow selector, never the whole state.
 */
import { createContext, useContext } from "react";
import { createStore, type StoreApi, useStore } from "zustand";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { type ConnectionSlice, connectionSlice } from "./connection-slice.js";
import { createStreamSlice, type StreamSlice } from "./stream-slice.js";
import { type ThemeName, type ViewSlice, viewSlice } from "./view-slice.js";

/** The whole renderer state. */
export type InspectorState = StreamSlice & ConnectionSlice & ViewSlice;

/** Creates the store for one bridge. */
export function createInspectorStore(
  shell: InspectorBridge["shell"],
  initial: { theme: ThemeName; largeText: boolean },
): StoreApi<InspectorState> {
  return createStore<InspectorState>()((...a) => ({
    ...createStreamSlice(...a),
    ...connectionSlice(shell)(...a),
    ...viewSlice(initial)(...a),
  }));
}

/** What the React tree gets from its root: the store and the bridge to act on. */
export interface InspectorContextValue {
  readonly store: StoreApi<InspectorState>;
  readonly bridge: InspectorBridge;
}

/** React context carrying the store and bridge. */
export const InspectorContext = createContext<InspectorContextValue | undefined>(undefined);

function useInspectorContext(): InspectorContextValue {
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
