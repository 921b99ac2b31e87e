/**
 * The zustand slice of the Conformance tab: the hub's conformance board as it last pushed it, and
 * which case traces this window has already opened (hub trace id -> the window's trace id), so a
 * second click shows the same trace instead of importing it again.
 */
import type { StateCreator } from "zustand";
import type { ConformanceBoard } from "../../../shared/conformance/conformance-run.js";

/** Conformance state; the board is filled by the feed pump from `conformance-status` messages. */
export interface ConformanceSlice {
  /** Undefined while the hub runs no conformance suite. */
  readonly conformance: ConformanceBoard | undefined;
  readonly openedCaseTraces: Readonly<Record<string, string>>;
  noteOpenedCaseTrace(hubTraceId: string, windowTraceId: string): void;
}

/** Creates the conformance slice. */
export const conformanceSlice: StateCreator<ConformanceSlice, [], [], ConformanceSlice> = (set) => ({
  conformance: undefined,
  openedCaseTraces: {},
  noteOpenedCaseTrace: (hubTraceId, windowTraceId) =>
    set((s) => ({ openedCaseTraces: { ...s.openedCaseTraces, [hubTraceId]: windowTraceId } })),
});
