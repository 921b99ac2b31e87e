/** The zustand slice fed by the event stream: records, stderr, core status. */
import type { StateCreator } from "zustand";
import type { EventBatch } from "../../shared/app/app-event.js";
import { applyBatches, EMPTY_STREAM, type StreamState } from "./apply-batches.js";

/** Stream state plus the one action that changes it. */
export interface StreamSlice extends StreamState {
  /** Applies every batch queued during one animation frame, in one `set()`. */
  applyBatches(batches: readonly EventBatch[]): void;
}

/** Creates the stream slice. */
export const createStreamSlice: StateCreator<StreamSlice, [], [], StreamSlice> = (set) => ({
  ...EMPTY_STREAM,
  applyBatches: (batches) => set((s) => applyBatches(s, batches)),
});
