/**
 * Where the app's conformance runner plugs into the hub: the hub pushes its board (the agent
 * choices and the run) to every UI as `conformance-status`, and hands it the UIs' start and cancel
 * requests (the `conformanceStart` and `conformanceCancel` operations), validated by the operation table. A start names an agent choice
 * by id only; the choices come from the hub's command line, its local config and the built-in demo
 * agent (`electron/conformance/agent-choices.ts`), never from a UI.
 */
import type { ConformanceBoard, ConformanceStart } from "../../../shared/conformance/conformance-run.js";
import { ControlSlot } from "./control-slot.js";

/** The answer to a start or cancel. */
export type ConformanceReply = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** A conformance runner as the hub sees it. */
export interface ConformanceControl {
  board(): ConformanceBoard;
  /** Calls `listener` on every change; returns an unsubscribe. */
  onBoard(listener: (board: ConformanceBoard) => void): () => void;
  start(request: ConformanceStart): ConformanceReply;
  cancel(): ConformanceReply;
}

const NONE: ConformanceReply = { ok: false, error: "this hub runs no conformance suite" };

/** The hub's conformance slot. */
export class ConformancePort extends ControlSlot<ConformanceControl, ConformanceBoard> {
  constructor() {
    super({ status: (c) => c.board(), subscribe: (c, l) => c.onBoard(l) });
  }

  /** Passes a (validated) start request on. */
  start(request: ConformanceStart): ConformanceReply {
    if (!this.control) return NONE;
    return this.control.start(request);
  }

  /** Cancels the running run. */
  cancel(): ConformanceReply {
    return this.control ? this.control.cancel() : NONE;
  }
}
