/**
 * Every IPC message is checked against the one window we opened and the one origin we serve,
 * so a frame or page that somehow got into that window cannot drive the app (electron/fiddle).
 */

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
