/** The bridge for the Electron shell: a thin wrapper over the preload's `window.acpInspector`. */
import type { InspectorApi } from "../../shared/app/inspector-api.js";
import type { InspectorBridge } from "./inspector-bridge.js";

/** Wraps the API the preload exposed; in-process IPC is always connected. */
export function createElectronBridge(api: InspectorApi): InspectorBridge {
  return {
    shell: "electron",
    onConnectionChange(onChange) {
      onChange("connected");
      return () => {};
    },
    subscribe: (fromSeq, onBatch) => api.subscribe(fromSeq, onBatch),
    clear: () => api.clear(),
    setPaused: (paused) => api.setPaused(paused),
    exportTrace: (redacted) => api.exportTrace(redacted),
    importTrace: (fileName, text) => api.importTrace(fileName, text),
    injectFault: (action, delayMs) => api.injectFault(action, delayMs),
  };
}
