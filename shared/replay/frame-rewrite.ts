/**
 * The replay's two rewrites of a recorded frame: the sessionIds the new agent minted replace the
 * recorded ones (any string value equal to a recorded sessionId, at any depth up to a bound), and a
 * JSON-RPC id already used by an earlier connection's frame gets a fresh one (every source
 * connection is played over the one stdio connection). A frame nothing applies to is sent as recorded.
 */

/** How deep the walk for sessionIds goes; deeper values are left as they are. */
export const MAX_REWRITE_DEPTH = 64;
/** How many values the walk visits in one frame; past it the rest is left as it is. */
export const MAX_REWRITE_NODES = 100_000;

/** A frame's text after the rewrites, and whether anything was changed (then it is re-serialised). */
export interface Rewritten {
  readonly raw: string;
  readonly changed: boolean;
  /** True when the walk stopped at a bound: a sessionId past it was not mapped. */
  readonly bounded: boolean;
}

/** Rewrites `message` (the parsed frame of `raw`): sessionIds by `sessions`, and its id to `newId` when given. */
export function rewriteFrame(
  raw: string,
  message: Record<string, unknown>,
  sessions: ReadonlyMap<string, string>,
  newId?: string | number,
): Rewritten {
  let changed = false;
  let bounded = false;
  let nodes = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_REWRITE_NODES || depth > MAX_REWRITE_DEPTH) {
      bounded = true;
      return v;
    }
    if (typeof v === "string") {
      const to = sessions.get(v);
      if (to === undefined) return v;
      changed = true;
      return to;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth + 1);
      return out;
    }
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) out[k] = k === "params" && sessions.size > 0 ? walk(v, 1) : v;
  if (newId !== undefined && out.id !== newId) {
    out.id = newId;
    changed = true;
  }
  return { raw: changed ? JSON.stringify(out) : raw, changed, bounded };
}
