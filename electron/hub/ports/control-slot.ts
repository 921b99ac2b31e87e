/**
 * A hub slot for something started beside the hub that publishes a status to every UI (the
 * built-in demo, the conformance runner): attach one (replacing any other), read its status,
 * and hear every status it publishes. The slot's listeners stay across attach and detach.
 */

/** How a slot reads a control's status and subscribes to its changes. */
export interface StatusSource<C, S> {
  status(control: C): S;
  subscribe(control: C, listener: (status: S) => void): () => void;
}

/** One pluggable control and its status feed. */
export class ControlSlot<C, S> {
  protected control: C | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly listeners = new Set<(status: S) => void>();

  constructor(private readonly source: StatusSource<C, S>) {}

  /** Attaches a control (replacing any other) and publishes its status; returns a detach function. */
  attach(control: C): () => void {
    this.unsubscribe?.();
    this.control = control;
    const publish = (status: S) => {
      for (const l of this.listeners) l(status);
    };
    this.unsubscribe = this.source.subscribe(control, publish);
    publish(this.source.status(control));
    return () => {
      if (this.control !== control) return;
      this.unsubscribe?.();
      this.control = undefined;
      this.unsubscribe = undefined;
    };
  }

  /** The attached control's status, or undefined without one. */
  status(): S | undefined {
    return this.control === undefined ? undefined : this.source.status(this.control);
  }

  /** Calls `listener` with every status the attached control publishes; returns an unsubscribe. */
  onStatus(listener: (status: S) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
