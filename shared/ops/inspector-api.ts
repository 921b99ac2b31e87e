/**
 * The UI's view of the hub behind it: one function per operation and one `subscribe`. The Electron
 * preload exposes exactly this as `window.acpInspector`; in a browser the renderer's hub bridge
 * provides the same calls over the hub's WebSocket and HTTP API.
 */
import type { ConformanceStart } from "../conformance/conformance-run.js";
import type { DemoCommand } from "../demo/demo-wire.js";
import type { FaultRuleSpec } from "../faults/fault-rule.js";
import type { OperationResults } from "./operation.js";

/** One function per operation and one `subscribe` that returns an unsubscribe; plain data only. */
export interface InspectorApi {
  /**
   * Subscribes to the hub's UI feed from hub seq `after` (0: from the oldest event held) and
   * delivers every hub message (`HubToUi` of `shared/hub/ui-wire.ts`) as its JSON text, parsed
   * once by the renderer. Call the result to stop.
   */
  subscribe(after: number, onMessage: (text: string) => void): () => void;
  armFault(spec: FaultRuleSpec): Promise<OperationResults["armFault"]>;
  disarmFault(id: string): Promise<OperationResults["disarmFault"]>;
  clearFaults(): Promise<OperationResults["clearFaults"]>;
  listTraces(): Promise<OperationResults["listTraces"]>;
  readTrace(id: string): Promise<OperationResults["readTrace"]>;
  hubStatus(): Promise<OperationResults["hubStatus"]>;
  demo(command: DemoCommand): Promise<OperationResults["demo"]>;
  conformanceStart(request: ConformanceStart): Promise<OperationResults["conformanceStart"]>;
  conformanceCancel(): Promise<OperationResults["conformanceCancel"]>;
}
