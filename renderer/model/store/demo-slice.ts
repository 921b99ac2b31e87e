/** The zustand slice holding the built-in demo's status, as the hub last pushed it. */
import type { StateCreator } from "zustand";
import type { DemoStatus } from "../../../shared/demo/demo-wire.js";

/** The demo's status; undefined while the hub runs no demo. */
export interface DemoSlice {
  readonly demo: DemoStatus | undefined;
}

/** Creates the demo slice (filled by the feed pump from `demo-status` messages). */
export const demoSlice: StateCreator<DemoSlice, [], [], DemoSlice> = () => ({ demo: undefined });
