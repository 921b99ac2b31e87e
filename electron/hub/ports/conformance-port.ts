/**
 * Where the app's conformance runner plugs into the hub: the hub pushes its board (the agent
 * choices and the run) to every UI as `conformance-status`, and hands it the UIs' start and cancel
 * requests (the `conformanceStart` and `conformanceCancel` operations), validated by the operation table. A start names an agent choice
 * by id only; the choices come from the hub's command line, its local config and the built-in demo
 * agent (`electron/conformance/agent-choices.ts`), never from a UI.
 */
import type { ConformanceBoard, ConformanceStart } from "../../../shared/conformance/conformance-run.js";
import type { StressStart } from "../../../shared/conformance/stress/stress-board.js";
import { ControlSlot } from "./control-slot.js";

/** The answer to a start or cancel (a conformance start's names the run it started). */
export type ConformanceReply =
  | { readonly ok: true; readonly runId?: string }
  | { readonly ok: false; readonly error: string };

/** A conformance runner as the hub sees it. */
export interface ConformanceControl {
  board(): ConformanceBoard;
  /** Calls `listener` on every change; returns an unsubscribe. */
  onBoard(listener: (board: ConformanceBoard) => void): () => void;
  start(request: ConformanceStart): ConformanceReply;
  cancel(): ConformanceReply;
  /** The stress mode, when this runner offers it. */
  startStress?(request: StressStart): ConformanceReply;
  cancelStress?(): ConformanceReply;
}

const NONE: ConformanceReply = { ok: false, error: "this hub runs no conformance suite" };
const NO_STRESS: ConformanceReply = { ok: false, error: "this hub runs no conformance stress mode" };

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

  /** Passes a (validated) stress start request on. */
  startStress(request: StressStart): ConformanceReply {
    if (!this.control?.startStress) return NO_STRESS;
    return this.control.startStress(request);
  }

  /** Cancels the running stress run. */
  cancelStress(): ConformanceReply {
    return this.control?.cancelStress ? this.control.cancelStress() : NO_STRESS;
  }
}
