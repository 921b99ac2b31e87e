/** Reading fields out of the untyped `params` and `result` objects of a JSON-RPC frame. */

import { asJsonObject } from "../protocol/json-object.js";

/** The `sessionId` string of a frame's params, or null when there is none. */
export function sessionIdOf(params: unknown): string | null {
  const id = asJsonObject(params)?.sessionId;
  return typeof id === "string" ? id : null;
}
