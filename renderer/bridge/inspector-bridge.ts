/**
 * The one interface the renderer codes against. Two implementations: `electron-bridge.ts`
 * (the preload's `window.acpInspector`) and `hub-bridge.ts` (the hub's authenticated WebSocket).
 */
import type { InspectorApi } from "../../shared/app/inspector-api.js";

/** How the UI is connected to the app core. */
export type ConnectionState = "connecting" | "connected" | "reconnecting" | "unauthorized";

/** The app core as the renderer sees it, plus which shell it runs in and its connection state. */
export interface InspectorBridge extends InspectorApi {
  /** `electron` in the desktop app, `browser` when served by `acp-retry-inspector serve`. */
  readonly shell: "electron" | "browser";
  /** Calls `onChange` now with the current state and on every change; returns an unsubscribe. */
  onConnectionChange(onChange: (state: ConnectionState) => void): () => void;
}
