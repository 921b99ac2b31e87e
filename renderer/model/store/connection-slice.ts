/** The zustand slice for how the UI reaches the app core. */
import type { StateCreator } from "zustand";
import type { ConnectionState, Shell } from "../bridge/inspector-bridge.js";

/** The bridge's shell and connection state. */
export interface ConnectionSlice {
  readonly shell: Shell;
  readonly connection: ConnectionState;
  /** True once this window was connected to the hub: a token refused after that is a restarted hub, not a wrong link. */
  readonly wasConnected: boolean;
  setConnection(connection: ConnectionState): void;
}

/** Creates the connection slice for a bridge of the given shell. */
export const connectionSlice =
  (shell: Shell): StateCreator<ConnectionSlice, [], [], ConnectionSlice> =>
  (set) => ({
    shell,
    connection: "connecting",
    wasConnected: false,
    setConnection: (connection) =>
      set((s) => ({ connection, wasConnected: s.wasConnected || connection === "connected" })),
  });
