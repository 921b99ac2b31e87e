/** Requests waiting for a response, keyed by (connection, direction, JSON-RPC id). */
import type { SubmissionState } from "./submission-state.js";
import type { Attempt, RequestRow } from "./timeline-model.js";

/** A request waiting for its response: a prompt attempt (with its submission) or another request row. */
export type Pending =
  | { readonly kind: "prompt"; readonly attempt: Attempt; readonly state: SubmissionState }
  | { readonly kind: "request"; readonly row: RequestRow };

function pendingKey(conn: number, dir: string, id: string | number): string {
  return `${conn}|${dir}|${typeof id}|${id}`;
}

/** The open requests of every connection; ids restart per connection and may be live in both directions. */
export class PendingRequests {
  private readonly byKey = new Map<string, Pending>();
  private readonly byConn = new Map<number, Set<string>>();

  /** Registers a request sent in `dir` on `conn`. */
  add(conn: number, dir: string, id: string | number, p: Pending): void {
    const k = pendingKey(conn, dir, id);
    this.byKey.set(k, p);
    const set = this.byConn.get(conn);
    if (set) set.add(k);
    else this.byConn.set(conn, new Set([k]));
  }

  /** The pending request sent in `dir` on `conn` with this id, left in place. */
  get(conn: number, dir: string, id: string | number): Pending | undefined {
    return this.byKey.get(pendingKey(conn, dir, id));
  }

  /** Removes and returns the pending request sent in `dir` on `conn` with this id. */
  take(conn: number, dir: string, id: string | number): Pending | undefined {
    const k = pendingKey(conn, dir, id);
    const p = this.byKey.get(k);
    if (p === undefined) return undefined;
    this.byKey.delete(k);
    this.byConn.get(conn)?.delete(k);
    return p;
  }

  /**
   * Removes and returns every pending request of a connection (both directions), except those
   * named in `keep` (direction and id), which stay pending.
   */
  takeConnection(
    conn: number,
    keep?: readonly { readonly dir: string; readonly id: string | number }[],
  ): Pending[] {
    const keys = this.byConn.get(conn);
    if (!keys) return [];
    const kept = new Set((keep ?? []).map((k) => pendingKey(conn, k.dir, k.id)));
    const out: Pending[] = [];
    for (const k of keys) {
      if (kept.has(k)) continue;
      const p = this.byKey.get(k);
      this.byKey.delete(k);
      keys.delete(k);
      if (p) out.push(p);
    }
    if (keys.size === 0) this.byConn.delete(conn);
    return out;
  }
}
