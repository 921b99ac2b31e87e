/** Wires a bridge into the inspector: connection state into the store, hub messages into the pump. */
import type { InspectorContextValue } from "./inspector-store.js";

/** Starts streaming; returns a function that stops it. */
export function connectStore({ bridge, store, pump }: InspectorContextValue): () => void {
  const offConnection = bridge.onConnectionChange((c) => store.getState().setConnection(c));
  const offStream = bridge.subscribe((message) => pump.push({ kind: "hub", message }));
  return () => {
    offStream();
    offConnection();
  };
}
