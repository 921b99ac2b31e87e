/**
 * The IPC feature modules of the Electron main process, written against a small registrar so
 * they need no `electron` import: main.ts adapts `ipcMain.handle` (with its sender check) to it.
 * Boot order (electron/fiddle): main runs every `setupX()` first, and only then opens the window.
 */
import { MAX_JSON_DEPTH, valueTooDeep } from "../../shared/trace/json-depth.js";
import type { AppCore } from "./app-core.js";
import { IPC_CHANNELS } from "./ipc-channels.js";

/** The window that sent an IPC call, already checked by the registrar. */
export interface IpcCaller {
  readonly webContentsId: number;
  /** Sends a message to the caller's window; a no-op once the window is gone. */
  send(channel: string, payload: unknown): void;
}

/** Registers a handler for one invoke channel; the registrar rejects calls from untrusted senders. */
export interface IpcRegistrar {
  handle(channel: string, handler: (caller: IpcCaller, args: readonly unknown[]) => unknown): void;
}

/** How an operation's result crosses IPC: errors as plain messages, because Electron mangles thrown errors. */
export type InvokeOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/** The longest operation name a window may send; the table's longest is 23 characters. */
const MAX_OP_NAME = 64;

/**
 * What is wrong with an `(op, args)` pair before anything reads it, or undefined: the page may be
 * compromised, and the main process would otherwise echo a huge name back or overflow its stack
 * writing deep arguments as JSON for the hub (issue 31). The operation table checks the rest.
 */
export function ipcCallFault(op: unknown, args: unknown): string | undefined {
  if (typeof op !== "string") return `the operation name must be a string, got ${typeof op}`;
  if (op.length > MAX_OP_NAME) return `unknown operation (a name of ${op.length} characters)`;
  if (valueTooDeep(args, MAX_JSON_DEPTH)) return `${op}: arguments nested deeper than ${MAX_JSON_DEPTH}`;
  return undefined;
}

/** Registers the operation channel: `(op, args)` runs on the core; failures come back as `{ok: false}`. */
export function setupOperations(ipc: IpcRegistrar, core: AppCore): void {
  ipc.handle(IPC_CHANNELS.invoke, async (_caller, [op, args]): Promise<InvokeOutcome> => {
    const fault = ipcCallFault(op, args);
    if (fault !== undefined) return { ok: false, error: fault };
    try {
      return { ok: true, value: await core.invoke(op as never, args) };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  });
}

/** The event-stream feature; `dropWindow` ends a window's stream when it closes. */
export interface EventStream {
  dropWindow(webContentsId: number): void;
}

/** Registers subscribe/unsubscribe: one hub feed per window, restarted from the hub seq the window asks for. */
export function setupEventStream(ipc: IpcRegistrar, core: AppCore): EventStream {
  const streams = new Map<number, () => void>();
  const drop = (id: number) => {
    streams.get(id)?.();
    streams.delete(id);
  };
  ipc.handle(IPC_CHANNELS.subscribe, (caller, [fromSeq]) => {
    const from = typeof fromSeq === "number" && Number.isSafeInteger(fromSeq) && fromSeq >= 0 ? fromSeq : 0;
    drop(caller.webContentsId);
    streams.set(
      caller.webContentsId,
      core.subscribe(from, (text: string) => caller.send(IPC_CHANNELS.message, text)),
    );
    return true;
  });
  ipc.handle(IPC_CHANNELS.unsubscribe, (caller) => {
    drop(caller.webContentsId);
    return true;
  });
  return { dropWindow: drop };
}
