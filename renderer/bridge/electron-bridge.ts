/** The bridge for the Electron shell: a thin wrapper over the preload's `window.acpInspector`. */
import type { InspectorApi } from "../../shared/ops/inspector-api.js";
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
    armFault: (spec) => api.armFault(spec),
    disarmFault: (id) => api.disarmFault(id),
    clearFaults: () => api.clearFaults(),
    listTraces: () => api.listTraces(),
    readTrace: (id) => api.readTrace(id),
    hubStatus: () => api.hubStatus(),
    demo: (command) => api.demo(command),
    conformanceStart: (request) => api.conformanceStart(request),
    conformanceCancel: () => api.conformanceCancel(),
  };
}
