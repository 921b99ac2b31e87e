/**
 * Values keyed by a pair (a session and a key, a connection and a session, ...): a map of maps,
 * so no composite string is built, hashed and kept per entry.
 */

/** A map from (outer, inner) to a value. */
export class PairMap<A, B, V> {
  private readonly outer = new Map<A, Map<B, V>>();

  /** The value of (a, b), or undefined. */
  get(a: A, b: B): V | undefined {
    return this.outer.get(a)?.get(b);
  }

  /** Sets the value of (a, b). */
  set(a: A, b: B, value: V): void {
    const inner = this.outer.get(a);
    if (inner) inner.set(b, value);
    else this.outer.set(a, new Map([[b, value]]));
  }

  /** Forgets every pair whose first element is `a`. */
  deleteAll(a: A): void {
    this.outer.delete(a);
  }
}
