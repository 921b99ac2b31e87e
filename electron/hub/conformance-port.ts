/**
 * Where the app's conformance runner plugs into the hub: the hub pushes its board (the agent
 * choices and the run) to every UI as `conformance-status`, and hands it the UIs' start and cancel
 * requests (WebSocket or `/api/conformance/runs`), validated first. A start names an agent choice
 * by id only; the choices come from the hub's command line, its local config and the built-in demo
 * agent (`electron/conformance/agent-choices.ts`), never from a UI.
 */
import {
  type ConformanceBoard,
  type ConformanceStart,
  parseConformanceStart,
} from "../../shared/conformance/conformance-run.js";

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
export class ConformancePort {
  private control: ConformanceControl | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly listeners = new Set<(board: ConformanceBoard) => void>();

  /** Attaches a runner (replacing any other); returns a detach function. */
  attach(control: ConformanceControl): () => void {
    this.unsubscribe?.();
    this.control = control;
    const publish = (board: ConformanceBoard) => {
      for (const l of this.listeners) l(board);
    };
    this.unsubscribe = control.onBoard(publish);
    publish(control.board());
    return () => {
      if (this.control !== control) return;
      this.unsubscribe?.();
      this.control = undefined;
      this.unsubscribe = undefined;
    };
  }

  /** The attached runner's board, or undefined without one. */
  board(): ConformanceBoard | undefined {
    return this.control?.board();
  }

  /** Calls `listener` with every board the attached runner publishes. */
  onBoard(listener: (board: ConformanceBoard) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Validates an untrusted start request and passes it on. */
  start(untrusted: unknown): ConformanceReply {
    if (!this.control) return NONE;
    const request = parseConformanceStart(untrusted);
    if ("error" in request) return { ok: false, error: request.error };
    return this.control.start(request);
  }

  /** Cancels the running run. */
  cancel(): ConformanceReply {
    return this.control ? this.control.cancel() : NONE;
  }
}
