/** The bridge for the Electron shell: a thin wrapper over the preload's `window.acpInspector`. */
import type { InspectorApi } from "../../../shared/ops/inspector-api.js";
import { operationFunctions } from "../../../shared/ops/operations.js";
import { FeedCursor, parseHubMessage } from "./hub-message.js";
import type { InspectorBridge } from "./inspector-bridge.js";

/** Wraps the API the preload exposed; the in-process hub is always connected. */
export function createElectronBridge(api: InspectorApi): InspectorBridge {
  const cursor = new FeedCursor();
  return {
    shell: "electron",
    onConnectionChange(onChange) {
      onChange("connected");
      return () => {};
    },
    subscribe: (onMessage) =>
      api.subscribe(cursor.after, (text) => {
        const m = parseHubMessage(text);
        if (m && m.t !== "reply") onMessage(cursor.see(m));
      }),
    ...operationFunctions((op, args) => (api[op] as (a: unknown) => Promise<never>)(args)),
  };
}
