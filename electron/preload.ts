/**
 * The sandboxed preload: exposes `window.acpInspector`, one function per app operation plus
 * `subscribe`, through contextBridge. It never exposes ipcRenderer or any Electron object.
 * Built as CommonJS because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from "electron";
import type { EventBatch } from "../shared/app/app-event.js";
import type { InspectorApi } from "../shared/app/inspector-api.js";
import type { OperationArgs, OperationName, OperationResults } from "../shared/app/operation.js";
import { IPC_CHANNELS } from "./app/ipc-channels.js";
import type { InvokeOutcome } from "./app/ipc-setup.js";

async function invoke<K extends OperationName>(op: K, args: OperationArgs[K]): Promise<OperationResults[K]> {
  const outcome = (await ipcRenderer.invoke(IPC_CHANNELS.invoke, op, args)) as InvokeOutcome;
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value as OperationResults[K];
}

let current: ((event: IpcRendererEvent, batch: EventBatch) => void) | undefined;

const api: InspectorApi = {
  subscribe(fromSeq, onBatch) {
    if (current) ipcRenderer.removeListener(IPC_CHANNELS.batch, current);
    const listener = (_event: IpcRendererEvent, batch: EventBatch) => onBatch(batch);
    current = listener;
    ipcRenderer.on(IPC_CHANNELS.batch, listener);
    void ipcRenderer.invoke(IPC_CHANNELS.subscribe, fromSeq);
    return () => {
      if (current !== listener) return;
      ipcRenderer.removeListener(IPC_CHANNELS.batch, listener);
      current = undefined;
      void ipcRenderer.invoke(IPC_CHANNELS.unsubscribe);
    };
  },
  clear: () => invoke("clear", {}),
  setPaused: (paused) => invoke("setPaused", { paused }),
  exportTrace: (redacted) => invoke("exportTrace", { redacted }),
  importTrace: (fileName, text) => invoke("importTrace", { fileName, text }),
  injectFault: (action, delayMs) =>
    invoke("injectFault", delayMs === undefined ? { action } : { action, delayMs }),
};

contextBridge.exposeInMainWorld("acpInspector", api);
