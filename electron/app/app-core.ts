/**
 * The seam between the shells and the inspector's engine. Both the Electron main process and
 * (later) the hub's WebSocket talk to an `AppCore`; `start-app.ts` decides which one runs.
 */
import type { EventBatch } from "../../shared/app/app-event.js";
import type { OperationName, OperationResults } from "../../shared/app/operation.js";

/** The in-process engine behind the UI: an event stream from a seq on, named operations, and shutdown. */
export interface AppCore {
  /** Delivers every event after `fromSeq`, then new ones in batches, until the returned function is called. */
  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void;
  /** Runs one operation. `args` is untrusted: implementations validate it with `parseOperationCall`. */
  invoke<K extends OperationName>(op: K, args: unknown): Promise<OperationResults[K]>;
  /** Stops everything the core started (agent, sockets, trace writer). */
  close(): Promise<void>;
}

/** Thrown by `invoke` for calls that fail validation; the shells pass its message to the UI. */
export class OperationError extends Error {}
