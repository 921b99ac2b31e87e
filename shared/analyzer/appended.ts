/**
 * Growing the short arrays of live rows. `push` gives a one-item array room for 17 (V8 grows by
 * half plus 16), and a trace keeps several such arrays per submission for its whole life; a copy
 * made by `concat` is allocated at its exact length, so rows stay small in the heap.
 */

/** A new array: the items of `xs`, then `x`. */
export function appended<T>(xs: readonly T[], x: T): T[] {
  return xs.concat([x]);
}
