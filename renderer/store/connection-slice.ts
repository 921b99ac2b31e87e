/** The zustand slice for how the UI reaches the app core. */
import type { StateCreator } from "zustand";
import type { ConnectionState } from "../bridge/inspector-bridge.js";

/** The bridge's shell and connection state. */
export interface ConnectionSlice {
  readonly shell: "electron" | "browser";
  readonly connection: ConnectionState;
  setConnection(connection: ConnectionState): void;
}

/** Creates the connection slice for a bridge of the given shell. */
export const connectionSlice =
  (shell: "electron" | "browser"): StateCreator<ConnectionSlice, [], [], ConnectionSlice> =>
  (set) => ({
    shell,
    connection: "connecting",
    setConnection: (connection) => set({ connection }),
  });
