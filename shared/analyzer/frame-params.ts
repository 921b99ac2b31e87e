/** Reading fields out of the untyped `params` and `result` objects of a JSON-RPC frame. */

/** The value as a plain object, or null when it is not one (null, an array or a primitive). */
export function asObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The `sessionId` string of a frame's params, or null when there is none. */
export function sessionIdOf(params: unknown): string | null {
  const id = asObject(params)?.sessionId;
  return typeof id === "string" ? id : null;
}
