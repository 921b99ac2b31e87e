/**
 * How the demo tells about its changes: fact watchers (a scenario step's condition, the demo waiting
 * for its tap) hear of every change at once; status listeners (UIs) hear at most every
 * STATUS_THROTTLE_MS, with the status as it stands then.
 */
import type { DemoStatus } from "../../shared/demo/demo-wire.js";

/** How often, at most, status listeners hear about changes (ms). */
const STATUS_THROTTLE_MS = 40;

/** The listeners of one demo and the throttle of its status. */
export class DemoChanges {
  private readonly statusListeners = new Set<(s: DemoStatus) => void>();
  private readonly factListeners = new Set<() => void>();
  private statusTimer: NodeJS.Timeout | undefined;

  /** `status` builds the status sent to status listeners. */
  constructor(private readonly status: () => DemoStatus) {}

  /** Calls `listener` with the status on every change (throttled); returns an unsubscribe. */
  onStatus(listener: (s: DemoStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Calls `onChange` on every change, unthrottled; returns an unsubscribe. */
  watch(onChange: () => void): () => void {
    this.factListeners.add(onChange);
    return () => this.factListeners.delete(onChange);
  }

  /** Resolves when `holds()` is true (checked on every change), rejects with `why` after `ms`. */
  until(holds: () => boolean, ms: number, why: string): Promise<void> {
    if (holds()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!holds()) return;
        this.factListeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.factListeners.delete(check);
        reject(new Error(why));
      }, ms);
      this.factListeners.add(check);
    });
  }

  /** Tells every fact watcher now, and the status listeners soon, that something changed. */
  changed(): void {
    for (const l of [...this.factListeners]) l();
    if (this.statusTimer !== undefined || this.statusListeners.size === 0) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      const s = this.status();
      for (const l of this.statusListeners) l(s);
    }, STATUS_THROTTLE_MS);
  }

  /** Cancels a status delivery still pending. */
  close(): void {
    clearTimeout(this.statusTimer);
  }
}
