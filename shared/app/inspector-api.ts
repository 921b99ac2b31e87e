/**
 * The UI's view of the app core: one function per operation and one `subscribe`. The Electron
 * preload exposes exactly this as `window.acpInspector`; the renderer's bridges implement it.
 */
import type { EventBatch } from "./app-event.js";
import type { FaultAction, OperationResults } from "./operation.js";

/** One function per operation and one `subscribe` that returns an unsubscribe; plain data only. */
export interface InspectorApi {
  /** Streams every event after `fromSeq` in batches; call the result to stop. */
  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void;
  clear(): Promise<OperationResults["clear"]>;
  setPaused(paused: boolean): Promise<OperationResults["setPaused"]>;
  exportTrace(redacted: boolean): Promise<OperationResults["exportTrace"]>;
  importTrace(fileName: string, text: string): Promise<OperationResults["importTrace"]>;
  injectFault(action: FaultAction, delayMs?: number): Promise<OperationResults["injectFault"]>;
}
