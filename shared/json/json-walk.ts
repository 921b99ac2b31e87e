/**
 * The one bounded walk over parsed JSON: depth first, with a stack of its own (never the call stack),
 * a depth bound past which an array or object is not entered, an optional bound on the values
 * visited, and a flag saying whether anything lay past a bound. Wire and file data may nest 100,000
 * deep (issue 31: one frame of 8,000 nested arrays killed the tap).
 */

/** One value met by the walk: where it sits and how deep. */
export interface JsonVisit {
  readonly value: unknown;
  /** How many arrays and objects hold it inside the walked value (0 for the walked value itself). */
  readonly depth: number;
  /** The array or object holding it (null for the walked value), and its index or key there. */
  readonly parent: object | null;
  readonly key: string | number;
}

/** How far a walk goes. */
export interface JsonBounds {
  /** Arrays and objects deeper than this are visited as past the bound and not entered. */
  readonly maxDepth: number;
  /** After this many values the walk stops; the rest is past the bound. */
  readonly maxNodes?: number;
}

/**
 * Visits `value` and everything inside it, depth first, in key order. `visit` gets `past` true for an
 * array or object deeper than `maxDepth` (not entered); it returns false to not enter one. An array
 * or object met twice (a shared reference) is entered once. Returns true when anything was past a bound.
 */
export function walkJson(
  value: unknown,
  bounds: JsonBounds,
  visit: (at: JsonVisit, past: boolean) => boolean | undefined,
): boolean {
  const maxNodes = bounds.maxNodes ?? Number.POSITIVE_INFINITY;
  const stack: JsonVisit[] = [{ value, depth: 0, parent: null, key: "" }];
  const seen = new Set<object>();
  let nodes = 0;
  let past = false;
  while (stack.length > 0) {
    if (++nodes > maxNodes) return true;
    const at = stack.pop() as JsonVisit;
    const v = at.value;
    if (v === null || typeof v !== "object") {
      visit(at, false);
      continue;
    }
    if (at.depth > bounds.maxDepth) {
      past = true;
      visit(at, true);
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (visit(at, false) === false) continue;
    const depth = at.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, parent: v, key: i });
    } else {
      const keys = Object.keys(v);
      const obj = v as Record<string, unknown>;
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        stack.push({ value: obj[k], depth, parent: v, key: k });
      }
    }
  }
  return past;
}

/** How `copyJson` changes what it copies. */
export interface JsonCopyMap {
  /** The copy of a string, number, boolean or null, given how deep it sits. */
  readonly leaf?: (v: unknown, depth: number) => unknown;
  /** An object key's copy. */
  readonly key?: (k: string) => string;
  /** What stands for an array or object past the depth bound (default: the value itself, not copied). */
  readonly past?: (v: unknown) => unknown;
}

/**
 * A copy of `value` made by `walkJson`: leaves (strings, numbers, ...) and keys mapped, an array or object past the depth
 * bound replaced by `map.past`, and whatever lies after `maxNodes` kept as it is. `pastBound` says
 * whether anything was past a bound.
 */
export function copyJson(
  value: unknown,
  bounds: JsonBounds,
  map: JsonCopyMap,
): { readonly value: unknown; readonly pastBound: boolean } {
  let root = value;
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const keyOf = map.key ?? ((k: string) => k);
  const put = (at: JsonVisit, x: unknown) => {
    if (at.parent === null) root = x;
    else {
      const c = copies.get(at.parent);
      if (Array.isArray(c)) c[at.key as number] = x;
      else if (c) c[keyOf(at.key as string)] = x;
    }
  };
  const pastBound = walkJson(value, bounds, (at, past) => {
    const v = at.value;
    if (past) {
      if (map.past) put(at, map.past(v));
      return false;
    }
    if (v === null || typeof v !== "object") {
      if (map.leaf) put(at, map.leaf(v, at.depth));
      return true;
    }
    // Filled with the originals first, so a value the walk never reaches stays as it was.
    let copy: unknown[] | Record<string, unknown>;
    if (Array.isArray(v)) copy = [...v];
    else {
      copy = {};
      for (const [k, x] of Object.entries(v)) copy[keyOf(k)] = x;
    }
    copies.set(v, copy);
    put(at, copy);
    return true;
  });
  return { value: root, pastBound };
}
