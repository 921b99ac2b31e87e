/** Notifications are not rows: the timeline keeps one count per method, with the seq of the latest. */
import { retryClassOf } from "../protocol/method-catalogue.js";
import type { NotificationCount } from "./timeline-model.js";

/** The count of every notification method seen, in order of first sight. */
export class NotificationCounts {
  private readonly byMethod = new Map<string, NotificationCount>();

  /** Counts one notification of `method` seen at `seq`. */
  count(method: string, seq: number): void {
    let count = this.byMethod.get(method);
    if (!count) {
      const retryClass = retryClassOf(method, "notification");
      count = { method, retryClass, count: 0, lastSeq: 0 };
      this.byMethod.set(method, count);
    }
    count.count++;
    count.lastSeq = seq;
  }

  /** The counts as they stand (live objects: later notifications change them). */
  rows(): NotificationCount[] {
    return [...this.byMethod.values()];
  }
}
