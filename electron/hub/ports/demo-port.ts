/**
 * Where a demo plugs into the hub: the hub pushes its status to every UI (`demo-status`) and hands
 * it the UIs' demo commands (the `demo` operation), validated by the operation table. Without a
 * demo attached, demo commands are refused. The demo itself (`electron/demo`) is started by
 * `serve --demo` or the app, never by a UI.
 */
import type { DemoCommand, DemoStatus } from "../../../shared/demo/demo-wire.js";
import { ControlSlot } from "./control-slot.js";

/** A running demo as the hub sees it. */
export interface DemoControl {
  status(): DemoStatus;
  /** Calls `listener` on every status change; returns an unsubscribe. */
  onStatus(listener: (status: DemoStatus) => void): () => void;
  command(command: DemoCommand): Promise<void>;
}

/** The hub's demo slot. */
export class DemoPort extends ControlSlot<DemoControl, DemoStatus> {
  constructor() {
    super({ status: (d) => d.status(), subscribe: (d, l) => d.onStatus(l) });
  }

  /** Runs a (validated) command; resolves with an error message when there is no demo or it failed. */
  async run(command: DemoCommand): Promise<{ ok: true } | { ok: false; error: string }> {
    const demo = this.control;
    if (!demo) return { ok: false, error: "no demo is running on this hub (start it with serve --demo)" };
    try {
      await demo.command(command);
      return { ok: true };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
