/**
 * Which two traces the Diff tab compares (A before, B after), and the replays this window started
 * (replay trace id -> its source), so a finished replay offers "Compare with the original".
 */
import { create } from "zustand";

/** The Diff tab's pair and the window's replays. */
export interface DiffPair {
  readonly a: string | undefined;
  readonly b: string | undefined;
  readonly replays: Readonly<Record<string, string>>;
  compare(a: string, b: string): void;
  noteReplay(replayId: string, sourceId: string): void;
}

/** The window's one pair (a page shows one Diff tab). */
export const useDiffPair = create<DiffPair>((set) => ({
  a: undefined,
  b: undefined,
  replays: {},
  compare: (a, b) => set({ a, b }),
  noteReplay: (replayId, sourceId) => set((s) => ({ replays: { ...s.replays, [replayId]: sourceId } })),
}));
