/**
 * The seam between the Electron shell and the hub: the main process talks to an `AppCore`, a thin
 * adapter over a running hub (`hub-core.ts`); `start-app.ts` starts the hub in-process.
 */
import type { OperationName, OperationResult } from "../../shared/ops/operations.js";

/** The hub as the Electron main process uses it: its UI feed, named operations, and shutdown. */
export interface AppCore {
  /** The hub's address for a browser on the same machine, without its token (`http://127.0.0.1:PORT/`). */
  readonly url: string;
  /** The rendezvous file holding the token and the full UI link (mode 0600); undefined when this hub is not advertised. */
  readonly tokenFile: string | undefined;
  /** Streams the hub's UI messages (JSON text) from hub seq `after` until the returned function is called. */
  subscribe(after: number, onMessage: (text: string) => void): () => void;
  /** Runs one operation. `args` is untrusted: implementations validate it against the operation table. */
  invoke<K extends OperationName>(op: K, args: unknown): Promise<OperationResult<K>>;
  /** Stops everything the core started (the hub, its sockets and trace files). */
  close(): Promise<void>;
}

/** Thrown by `invoke` for calls that fail validation or that the hub refused; the shells pass its message on. */
export class OperationError extends Error {}
