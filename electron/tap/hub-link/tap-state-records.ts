import type { TraceRecord } from "../../../shared/trace/record.js";

/** Agents and connections remembered; the oldest ended ones are forgotten beyond this. */
const MAX_KEPT = 64;

type Lifecycle = Extract<TraceRecord, { type: "agent-spawn" | "agent-exit" | "conn-open" | "conn-close" }>;

/**
 * The records a hub needs to show what the tap is doing now (which agent pids run, which
 * connections are open): each agent's `agent-spawn` and `agent-exit`, each connection's
 * `conn-open` and `conn-close`. A proxy that attaches late, or to a new hub, sent these while no
 * hub was there (or to a hub that is gone); the link re-sends them on attach, so `taps` and the UI
 * show the agent's pid. Bounded: ended agents and closed connections beyond the last 64 are dropped.
 */
export class TapStateRecords {
  private readonly kept = new Map<string, Lifecycle[]>();

  /** Notes a record the tap produced (only lifecycle records are kept). */
  note(record: TraceRecord): void {
    let key: string;
    switch (record.type) {
      case "agent-spawn":
      case "agent-exit":
        key = `agent ${record.pid}`;
        break;
      case "conn-open":
      case "conn-close":
        key = `conn ${record.conn}`;
        break;
      default:
        return;
    }
    const list = this.kept.get(key) ?? [];
    list.push(record);
    this.kept.delete(key); // re-inserted last: the map stays in order of last change
    this.kept.set(key, list.slice(-2));
    if (this.kept.size > MAX_KEPT) {
      for (const [k, rs] of this.kept) {
        if (this.kept.size <= MAX_KEPT) break;
        if (rs.some((r) => r.type === "agent-exit" || r.type === "conn-close")) this.kept.delete(k);
      }
    }
  }

  /** The kept records with `after < seq < before`, in seq order: what a hub that has up to `after` lacks. */
  between(after: number, before: number): TraceRecord[] {
    return [...this.kept.values()]
      .flat()
      .filter((r) => r.seq > after && r.seq < before)
      .sort((a, b) => a.seq - b.seq);
  }
}
