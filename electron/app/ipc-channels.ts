/** The IPC channel names between the Electron main process and the preload; nothing else uses IPC. */
export const IPC_CHANNELS = {
  /** renderer → main, invoke: `(op, args)` runs one app operation. */
  invoke: "acp-inspector:invoke",
  /** renderer → main, invoke: `(fromSeq)` starts (or restarts) this window's event stream. */
  subscribe: "acp-inspector:subscribe",
  /** renderer → main, invoke: stops this window's event stream. */
  unsubscribe: "acp-inspector:unsubscribe",
  /** main → renderer, send: one `EventBatch`. */
  batch: "acp-inspector:batch",
} as const;
