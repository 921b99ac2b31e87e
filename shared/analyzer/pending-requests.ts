/** Requests waiting for a response, keyed by (connection, direction, JSON-RPC id). */
import type { SubmissionState } from "./submission-state.js";
import type { Attempt, RequestRow } from "./timeline-model.js";

/** A request waiting for its response: a prompt attempt (with its submission) or another request row. */
export type Pending =
  | { readonly kind: "prompt"; readonly attempt: Attempt; readonly state: SubmissionState }
  | { readonly kind: "request"; readonly row: RequestRow };

/** A pending request and when it was first registered (a connection's requests are given back in that order). */
interface Entry {
  readonly order: number;
  p: Pending;
}

/** One connection's open requests: by direction, then by id (a Map tells the string "1" from the number 1). */
interface ConnPending {
  readonly byDir: Map<string, Map<string | number, Entry>>;
  size: number;
}

/** A (direction, id) as one string, for the few requests a closing connection keeps. */
function keptKey(dir: string, id: string | number): string {
  return `${dir}|${typeof id}|${id}`;
}

/** The open requests of every connection; ids restart per connection and may be live in both directions. */
export class PendingRequests {
  private readonly byConn = new Map<number, ConnPending>();
  private nextOrder = 0;

  /** Registers a request sent in `dir` on `conn`. */
  add(conn: number, dir: string, id: string | number, p: Pending): void {
    let c = this.byConn.get(conn);
    if (!c) {
      c = { byDir: new Map(), size: 0 };
      this.byConn.set(conn, c);
    }
    let ids = c.byDir.get(dir);
    if (!ids) {
      ids = new Map();
      c.byDir.set(dir, ids);
    }
    const e = ids.get(id);
    // An id reused while still pending: the newer request replaces it, in the older one's place.
    if (e) e.p = p;
    else {
      ids.set(id, { order: this.nextOrder++, p });
      c.size++;
    }
  }

  /** The pending request sent in `dir` on `conn` with this id, left in place. */
  get(conn: number, dir: string, id: string | number): Pending | undefined {
    return this.byConn.get(conn)?.byDir.get(dir)?.get(id)?.p;
  }

  /** Removes and returns the pending request sent in `dir` on `conn` with this id. */
  take(conn: number, dir: string, id: string | number): Pending | undefined {
    const c = this.byConn.get(conn);
    const ids = c?.byDir.get(dir);
    const e = ids?.get(id);
    if (c === undefined || ids === undefined || e === undefined) return undefined;
    ids.delete(id);
    c.size--;
    if (c.size === 0) this.byConn.delete(conn);
    return e.p;
  }

  /**
   * Removes and returns every pending request of a connection (both directions) in the order they
   * were registered, except those named in `keep` (direction and id), which stay pending.
   */
  takeConnection(
    conn: number,
    keep?: readonly { readonly dir: string; readonly id: string | number }[],
  ): Pending[] {
    const c = this.byConn.get(conn);
    if (!c) return [];
    const kept = keep && keep.length > 0 ? new Set(keep.map((k) => keptKey(k.dir, k.id))) : undefined;
    const taken: Entry[] = [];
    for (const [dir, ids] of c.byDir)
      for (const [id, e] of ids) {
        if (kept?.has(keptKey(dir, id))) continue;
        ids.delete(id);
        c.size--;
        taken.push(e);
      }
    if (c.size === 0) this.byConn.delete(conn);
    return taken.sort((a, b) => a.order - b.order).map((e) => e.p);
  }
}
