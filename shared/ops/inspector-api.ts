/**
 * The UI's view of the hub behind it: one function per operation of the table and one
 * `subscribe`. The Electron preload exposes exactly this as `window.acpInspector`; in a browser
 * the renderer's hub bridge provides the same calls over the hub's WebSocket and HTTP API.
 */
import type { OperationFunctions } from "./operations.js";

/** One function per operation and one `subscribe` that returns an unsubscribe; plain data only. */
export interface InspectorApi extends OperationFunctions {
  /**
   * Subscribes to the hub's UI feed from hub seq `after` (0: from the oldest event held) and
   * delivers every hub message (`HubToUi` of `shared/hub/ui-wire.ts`) as its JSON text, parsed
   * once by the renderer. Call the result to stop.
   */
  subscribe(after: number, onMessage: (text: string) => void): () => void;
}
