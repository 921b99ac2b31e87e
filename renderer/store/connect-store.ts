/** Wires a bridge into a store: connection state, and the event stream through the frame scheduler. */
import type { StoreApi } from "zustand";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { createFrameScheduler, type RequestFrame } from "./frame-scheduler.js";
import type { InspectorState } from "./inspector-store.js";

/** Starts streaming from seq 0 into the store; returns a function that stops it. */
export function connectStore(
  bridge: InspectorBridge,
  store: StoreApi<InspectorState>,
  requestFrame: RequestFrame,
): () => void {
  const offConnection = bridge.onConnectionChange((c) => store.getState().setConnection(c));
  const push = createFrameScheduler((batches) => store.getState().applyBatches(batches), requestFrame);
  const offStream = bridge.subscribe(store.getState().lastSeq, push);
  return () => {
    offStream();
    offConnection();
  };
}
