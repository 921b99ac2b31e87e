/**
 * Every IPC message is checked against the one window we opened and the one origin we serve,
 * so a frame or page that somehow got into that window cannot drive the app (electron/fiddle).
 */
import type { IpcRegistrar } from "./ipc-setup.js";

/** What the main process knows about who sent an IPC message. */
export interface IpcSender {
  readonly webContentsId: number;
  /** URL of the sending frame; undefined when the frame is gone. */
  readonly frameUrl: string | undefined;
  /** False for messages from iframes. */
  readonly isMainFrame: boolean;
}

/** The window and origin the app trusts. */
export interface TrustedRenderer {
  readonly webContentsId: number;
  /** Origin of the renderer as `scheme://host[:port]`, e.g. `app://inspector` (custom schemes have no WHATWG origin). */
  readonly origin: string;
}

/** True when the message came from the main frame of our window, showing a page of our origin. */
export function isTrustedSender(sender: IpcSender, trusted: TrustedRenderer | undefined): boolean {
  if (!trusted || sender.webContentsId !== trusted.webContentsId || !sender.isMainFrame) return false;
  if (!sender.frameUrl) return false;
  try {
    const url = new URL(sender.frameUrl);
    return `${url.protocol}//${url.host}` === trusted.origin;
  } catch {
    return false;
  }
}

/** The parts of Electron's `IpcMainInvokeEvent` the registrar reads (no `electron` import here). */
export interface InvokeEvent {
  readonly sender: {
    readonly id: number;
    isDestroyed(): boolean;
    send(channel: string, payload: unknown): void;
  };
  /** Null or undefined when the frame is gone; `parent` is null for a main frame. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null | undefined;
}

/**
 * Adapts `ipcMain.handle` (passed as `handle`) to the feature modules: every call whose sender is
 * not the main frame of `trusted()` on its origin is refused before any handler sees its arguments.
 */
export function checkedRegistrar(
  handle: (channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown) => void,
  trusted: () => TrustedRenderer | undefined,
): IpcRegistrar {
  return {
    handle(channel, handler) {
      handle(channel, (event, ...args) => {
        const frame = event.senderFrame;
        const sender: IpcSender = {
          webContentsId: event.sender.id,
          frameUrl: frame?.url,
          isMainFrame: frame !== null && frame !== undefined && frame.parent === null,
        };
        if (!isTrustedSender(sender, trusted())) throw new Error("IPC refused: not the inspector window");
        const contents = event.sender;
        return handler(
          {
            webContentsId: contents.id,
            send: (ch, payload) => {
              if (!contents.isDestroyed()) contents.send(ch, payload);
            },
          },
          args,
        );
      });
    },
  };
}
