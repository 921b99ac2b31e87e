/**
 * The one interface the renderer codes against. Two implementations: `electron-bridge.ts`
 * (the preload's `window.acpInspector`, over IPC to the in-process hub) and `hub-bridge.ts` (the
 * hub's authenticated WebSocket and HTTP API). Both deliver the hub's UI wire messages
 * (`shared/hub/ui-wire.ts`), parsed once.
 */

import type { OperationResults } from "../../shared/app/operation.js";
import type { ConformanceStart } from "../../shared/conformance/conformance-run.js";
import type { DemoCommand } from "../../shared/demo/demo-wire.js";
import type { FaultRuleSpec } from "../../shared/faults/fault-rule.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";

/** How the UI is connected to the hub. */
export type ConnectionState = "connecting" | "connected" | "reconnecting" | "unauthorized";

/** The hub as the renderer sees it, plus which shell it runs in and its connection state. */
export interface InspectorBridge {
  /** `electron` in the desktop app, `browser` when served by `acp-retry-inspector serve`. */
  readonly shell: "electron" | "browser";
  /** Calls `onChange` now with the current state and on every change; returns an unsubscribe. */
  onConnectionChange(onChange: (state: ConnectionState) => void): () => void;
  /**
   * Streams every hub message. After a reconnect the bridge resubscribes from the last hub seq it
   * delivered (from 0 when the hub is a new one), so nothing the hub still holds is lost.
   */
  subscribe(onMessage: (message: HubToUi) => void): () => void;
  armFault(spec: FaultRuleSpec): Promise<OperationResults["armFault"]>;
  disarmFault(id: string): Promise<OperationResults["disarmFault"]>;
  clearFaults(): Promise<OperationResults["clearFaults"]>;
  listTraces(): Promise<OperationResults["listTraces"]>;
  readTrace(id: string): Promise<OperationResults["readTrace"]>;
  hubStatus(): Promise<OperationResults["hubStatus"]>;
  /** Drives the built-in demo (fails when the hub runs none). */
  demo(command: DemoCommand): Promise<OperationResults["demo"]>;
  /** Runs the conformance suite against one of the hub's agent choices. */
  conformanceStart(request: ConformanceStart): Promise<OperationResults["conformanceStart"]>;
  /** Cancels the running conformance run. */
  conformanceCancel(): Promise<OperationResults["conformanceCancel"]>;
}
