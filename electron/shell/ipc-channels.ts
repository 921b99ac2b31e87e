/** The IPC channel names between the Electron main process and the preload; nothing else uses IPC. */
export const IPC_CHANNELS = {
  /** renderer → main, invoke: `(op, args)` runs one app operation. */
  invoke: "acp-inspector:invoke",
  /** renderer → main, invoke: `(after)` starts (or restarts) this window's hub feed from hub seq `after`. */
  subscribe: "acp-inspector:subscribe",
  /** renderer → main, invoke: stops this window's event stream. */
  unsubscribe: "acp-inspector:unsubscribe",
  /** main → renderer, send: one hub UI message as JSON text (`HubToUi`). */
  message: "acp-inspector:message",
} as const;
