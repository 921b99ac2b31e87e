/**
 * The one interface the renderer codes against. Two implementations: `electron-bridge.ts`
 * (the preload's `window.acpInspector`, over IPC to the in-process hub) and `hub-bridge.ts` (the
 * hub's authenticated WebSocket and HTTP API). Both deliver the hub's UI wire messages
 * (`shared/hub/ui-wire.ts`), parsed once.
 */

import type { HubToUi } from "../../../shared/hub/ui-wire.js";
import type { InspectorApi } from "../../../shared/ops/inspector-api.js";

/** How the UI is connected to the hub. */
export type ConnectionState =
  | "connecting"
  | "connected"
  | "reconnecting"
  | "unauthorized"
  | "refused-full"
  /** A saved page (`export --html`): no hub, for good. */
  | "saved";

/** Where the page runs: the desktop app, a browser tab served by the hub, or a saved page opened from a file. */
export type Shell = "electron" | "browser" | "saved";

/**
 * The hub as the renderer sees it: the operations of `InspectorApi` (one per toolbar action), plus
 * which shell it runs in, its connection state, and the hub's messages already parsed.
 */
export interface InspectorBridge extends Omit<InspectorApi, "subscribe"> {
  /** `electron` in the desktop app, `browser` when served by `acp-retry-inspector serve`, `saved` in a saved page. */
  readonly shell: Shell;
  /** Calls `onChange` now with the current state and on every change; returns an unsubscribe. */
  onConnectionChange(onChange: (state: ConnectionState) => void): () => void;
  /**
   * Streams every hub message. After a reconnect the bridge resubscribes from the last hub seq it
   * delivered (from 0 when the hub is a new one), so nothing the hub still holds is lost.
   */
  subscribe(onMessage: (message: HubToUi) => void): () => void;
}
