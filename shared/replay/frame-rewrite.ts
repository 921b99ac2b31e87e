/**
 * The replay's two rewrites of a recorded frame: the sessionIds the new agent minted replace the
 * recorded ones (any string value equal to a recorded sessionId, at any depth up to a bound), and a
 * JSON-RPC id already used by an earlier connection's frame gets a fresh one (every source
 * connection is played over the one stdio connection). A frame nothing applies to is sent as recorded.
 */
import { copyJson } from "../json/json-walk.js";

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
  // walkJson counts params at depth 0, MAX_REWRITE_DEPTH counts it as 1; a leaf just past it is left too.
  const maxDepth = MAX_REWRITE_DEPTH - 1;
  const mapSessionIds = (v: unknown): unknown => {
    const copy = copyJson(
      v,
      { maxDepth, maxNodes: MAX_REWRITE_NODES },
      {
        leaf: (x, depth) => {
          if (depth > maxDepth) {
            bounded = true;
            return x;
          }
          const to = typeof x === "string" ? sessions.get(x) : undefined;
          if (to === undefined) return x;
          changed = true;
          return to;
        },
      },
    );
    if (copy.pastBound) bounded = true;
    return copy.value;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message))
    out[k] = k === "params" && sessions.size > 0 ? mapSessionIds(v) : v;
  if (newId !== undefined && out.id !== newId) {
    out.id = newId;
    changed = true;
  }
  return { raw: changed ? JSON.stringify(out) : raw, changed, bounded };
}
