/**
 * The lifecycle and fault events of a trace as Timeline event rows (Temporal's event history, inline
 * among the requests), fed record by record: connections opened and closed, Agent processes started,
 * restarted and ended, faults applied, held frames released or never delivered, retries the
 * inspector made, the tap's warnings and errors (its info notes are left out). It also answers which Agent process served a connection at a seq,
 * so an attempt row can name the pid it went to.
 */
import { isFaultAction } from "../faults/fault-actions.js";
import { RETRY_ACTIONS } from "../faults/fault-rule.js";
import type { FaultRecord, TraceRecord } from "../trace/record.js";
import type { LifecycleEvent } from "./timeline-model.js";

/** One Agent process's life, in seqs; `conn` when it served one connection only (remote fronts). */
interface AgentSpan {
  readonly pid: number;
  readonly conn: number | undefined;
  readonly from: number;
  to: number | null;
}

function faultEvent(r: FaultRecord): Pick<LifecycleEvent, "kind" | "words" | "tone"> {
  const frame = r.frameSeq !== undefined ? ` frame #${r.frameSeq}` : "";
  if (r.fate === "released") {
    const after = r.heldMs !== undefined ? ` after ${Math.round(r.heldMs)} ms` : "";
    return {
      kind: "fault-released",
      words: `fault released: ${r.action} let${frame || " the frame"} through${after}`,
      tone: "info",
    };
  }
  if (r.fate === "undelivered") {
    const why = r.detail ? ` (${r.detail})` : "";
    return {
      kind: "fault-undelivered",
      words: `held${frame || " frame"} never delivered${why}`,
      tone: "error",
    };
  }
  const on = frame ? ` on${frame}` : "";
  const detail = r.detail ? `: ${r.detail}` : "";
  if (isFaultAction(r.action) && RETRY_ACTIONS.has(r.action)) {
    return { kind: "inspector-retry", words: `inspector retry: ${r.action}${on}${detail}`, tone: "warn" };
  }
  return { kind: "fault-applied", words: `fault applied: ${r.action}${on}${detail}`, tone: "warn" };
}

/** Collects event rows from records in seq order; `list` changes identity only when an event was added. */
export class TimelineEvents {
  private readonly events: LifecycleEvent[] = [];
  private readonly spans: AgentSpan[] = [];
  private shown: readonly LifecycleEvent[] = [];

  /** The events so far, in seq order (the same array until one is added). */
  get list(): readonly LifecycleEvent[] {
    if (this.shown.length !== this.events.length) this.shown = this.events.slice();
    return this.shown;
  }

  /** Takes one record; returns the event it made, or null for a frame or stderr line. */
  ingest(r: TraceRecord): LifecycleEvent | null {
    const event = this.eventOf(r);
    if (event) this.events.push(event);
    return event;
  }

  /** The event made from the record with this seq, if any (binary search: seqs only grow). */
  at(seq: number): LifecycleEvent | undefined {
    const es = this.events;
    let lo = 0;
    let hi = es.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = es[mid] as LifecycleEvent;
      if (e.seq === seq) return e;
      if (e.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The pid of the Agent process serving connection `conn` at `seq`, or null when none was running (or none is known). */
  pidAt(conn: number, seq: number): number | null {
    for (let i = this.spans.length - 1; i >= 0; i--) {
      const s = this.spans[i] as AgentSpan;
      if (s.from > seq) continue;
      if (s.conn !== undefined && s.conn !== conn) continue;
      return s.to === null || s.to > seq ? s.pid : null;
    }
    return null;
  }

  private eventOf(r: TraceRecord): LifecycleEvent | null {
    // Most records are frames: no event, and nothing allocated for them.
    if (r.type === "frame" || r.type === "agent-stderr") return null;
    const at = { seq: r.seq, ts: r.ts };
    switch (r.type) {
      case "conn-open": {
        const peer = r.peer ? `, ${r.peer}` : "";
        const words = `connection #${r.conn} opened (${r.transport}${peer})`;
        return { ...at, kind: "conn-open", conn: r.conn, pid: null, words, tone: "info" };
      }
      case "conn-close": {
        const why =
          typeof r.reason === "string" && r.reason !== "" ? `: ${r.reason}` : " (no reason recorded)";
        return {
          ...at,
          kind: "conn-close",
          conn: r.conn,
          pid: null,
          words: `connection #${r.conn} closed${why}`,
          tone: "warn",
        };
      }
      case "agent-spawn": {
        const before = [...this.spans].reverse().find((s) => s.conn === r.conn);
        this.spans.push({ pid: r.pid, conn: r.conn, from: r.seq, to: null });
        const conn = r.conn ?? null;
        if (before) {
          const words = `agent restarted as pid ${r.pid} (was pid ${before.pid})`;
          return { ...at, kind: "agent-restart", conn, pid: r.pid, words, tone: "warn" };
        }
        return {
          ...at,
          kind: "agent-spawn",
          conn,
          pid: r.pid,
          words: `agent started, pid ${r.pid}`,
          tone: "ok",
        };
      }
      case "agent-exit": {
        const span = [...this.spans].reverse().find((s) => s.pid === r.pid && s.to === null);
        if (span) span.to = r.seq;
        else this.spans.push({ pid: r.pid, conn: r.conn, from: 0, to: r.seq });
        const words =
          r.signal !== null
            ? `agent ${r.pid} killed by ${r.signal}`
            : r.code === null
              ? `agent ${r.pid} exited (no code or signal recorded)`
              : r.code === 0
                ? `agent ${r.pid} exited (code 0)`
                : `agent ${r.pid} exited with code ${r.code}`;
        const tone = r.signal === null && r.code === 0 ? "info" : "error";
        return { ...at, kind: "agent-exit", conn: r.conn ?? null, pid: r.pid, words, tone };
      }
      case "fault":
        return { ...at, conn: r.conn ?? null, pid: null, ...faultEvent(r) };
      case "note": {
        // An info note (the tap attached to the hub, ...) is bookkeeping, not an event of the session.
        if (r.level === "info") return null;
        const tone = r.level === "error" ? "error" : r.level === "warn" ? "warn" : "info";
        return {
          ...at,
          kind: "note",
          conn: null,
          pid: null,
          words: `tap note (${r.level}): ${r.text}`,
          tone,
        };
      }
      default:
        return null;
    }
  }
}
