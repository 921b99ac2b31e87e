/**
 * The sandboxed preload: exposes `window.acpInspector`, one function per operation of the table
 * (`shared/ops/operations.ts`) plus `subscribe`, through contextBridge. It never exposes
 * ipcRenderer or any Electron object. Built as CommonJS because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from "electron";
import type { InspectorApi } from "../../shared/ops/inspector-api.js";
import { operationFunctions } from "../../shared/ops/operations.js";
import { IPC_CHANNELS } from "./ipc-channels.js";
import type { InvokeOutcome } from "./ipc-setup.js";

let current: ((event: IpcRendererEvent, text: string) => void) | undefined;

const api: InspectorApi = {
  subscribe(after, onMessage) {
    if (current) ipcRenderer.removeListener(IPC_CHANNELS.message, current);
    const listener = (_event: IpcRendererEvent, text: string) => {
      if (typeof text === "string") onMessage(text);
    };
    current = listener;
    ipcRenderer.on(IPC_CHANNELS.message, listener);
    void ipcRenderer.invoke(IPC_CHANNELS.subscribe, after);
    return () => {
      if (current !== listener) return;
      ipcRenderer.removeListener(IPC_CHANNELS.message, listener);
      current = undefined;
      void ipcRenderer.invoke(IPC_CHANNELS.unsubscribe);
    };
  },
  ...operationFunctions(async (op, args) => {
    const outcome = (await ipcRenderer.invoke(IPC_CHANNELS.invoke, op, args)) as InvokeOutcome;
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value as never;
  }),
};

contextBridge.exposeInMainWorld("acpInspector", api);
