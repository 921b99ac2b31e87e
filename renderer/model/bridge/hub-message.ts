/**
 * Reading the hub's UI messages in the renderer: one JSON.parse per message (which parses every
 * record in an `events` batch exactly once), a shape check, and the feed cursor both bridges keep.
 */
import type { HubToUi } from "../../../shared/hub/ui-wire.js";

/** Parses one hub message; undefined for anything that is not one (ignored, never thrown). */
export function parseHubMessage(text: unknown): HubToUi | undefined {
  if (typeof text !== "string") return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const m = v as Record<string, unknown>;
  switch (m.t) {
    case "hello":
      return typeof m.hubId === "string" && typeof m.latestSeq === "number" ? (v as HubToUi) : undefined;
    case "events":
      return Array.isArray(m.events) ? (v as HubToUi) : undefined;
    case "gap":
      return typeof m.after === "number" && typeof m.oldestSeq === "number" ? (v as HubToUi) : undefined;
    case "reply":
      return typeof m.ok === "boolean" ? (v as HubToUi) : undefined;
    case "fault-rules":
      return Array.isArray(m.rules) ? (v as HubToUi) : undefined;
    case "error":
      return typeof m.message === "string" ? (v as HubToUi) : undefined;
    case "demo-status":
      return m.status !== null && typeof m.status === "object" ? (v as HubToUi) : undefined;
    case "conformance-status":
      return m.board !== null && typeof m.board === "object" ? (v as HubToUi) : undefined;
    default:
      return undefined;
  }
}

/** Where a subscriber stands in a hub's feed: the hub it talks to and the last hub seq it got. */
export class FeedCursor {
  private hubId: string | undefined;
  private last = 0;

  /** Notes a message; returns it. `events` move the cursor, a new hub's `hello` resets it to 0. */
  see(m: HubToUi): HubToUi {
    if (m.t === "hello") {
      if (this.hubId !== undefined && this.hubId !== m.hubId) this.last = 0;
      this.hubId = m.hubId;
    } else if (m.t === "events") {
      const seq = m.events.at(-1)?.seq;
      if (seq !== undefined && seq > this.last) this.last = seq;
    }
    return m;
  }

  /** The `after` of the next `subscribe`. */
  get after(): number {
    return this.last;
  }
}
